/**
 * A fleet budget on GitHub (docs/budgets.md, "On GitHub"), judged on the fake GitHub with two
 * replicas of the scheduler, each reading `.github/bosun.yml` as the App does: a fleet day cap that
 * fits N reservations never has more than N runs in flight or spent across both replicas, whether
 * they tick together or one decides from a state the other has since granted from; the items past
 * it stay queued, held by budget, never failed; a land job's reported cost replaces its
 * reservation, a run that reports none keeps it; raising the cap in the file releases the held
 * items; and the dashboard shows the spend against the cap. Spend is read from the claim records
 * the fake holds, not from Bosun's report.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createConfigLoader } from "../../../src/adapters/github/config-loader.js";
import { octokitTickGitHub } from "../../../src/adapters/github/tick/octokit-tick-github.js";
import { RepoTicker } from "../../../src/adapters/github/tick/repo-ticker.js";
import type { TickGitHub } from "../../../src/adapters/github/tick/tick-github.js";
import { MemoryJournal } from "../../../src/adapters/memory/memory-journal.js";
import type { ManualClock } from "../../../src/adapters/memory/manual-clock.js";
import { schedulerDashboardState } from "../../../src/app/dashboard/scheduler-dashboard-state.js";
import { countedMicros, SPEND_KEPT_MS } from "../../../src/core/budget/claim-spend.js";
import { parseClaimMessage, type ClaimRecord } from "../../../src/core/claims/claim-record.js";
import type { BosunConfig } from "../../../src/core/config/bosun-config.js";
import { parseConfig } from "../../../src/core/config/parse-config.js";
import { renderDashboard } from "../../../src/core/dashboard/render-dashboard.js";
import type { TickView } from "../../../src/core/scheduler/tick-plan.js";
import { createTestOctokit } from "../../fake-github/test-octokit.js";
import { BOT, REPO, schedulerFixture } from "./scheduler-fixture.js";
import { runWorkPhases } from "./work-phases.js";

type Fixture = Awaited<ReturnType<typeof schedulerFixture>>;
let f: Fixture | undefined;
afterEach(async () => {
  await f?.fake.close();
  f = undefined;
});

const DAY = 86_400_000;
const M = 1_000_000;
const OWNER_REPO = { owner: "acme", repo: "app" };
/** A pool far larger than the cap: only money can stop a grant. */
const configText = (dayUsd: number): string => `pools:\n  default: {size: 10, dispatch: {kind: workflow, workflow: bosun-work.yml}}\nlease: 10m\nbudgets:\n  fleet: {day_usd: ${dayUsd}}\n  item_usd: 0.5\n`;
const configOf = (text: string): BosunConfig => {
  const parsed = parseConfig(text);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.config;
};

/** The caps are UTC days on the fixture's clock: a test started too near midnight starts just after it, so no window rolls over mid-test. */
function awayFromMidnight(clock: ManualClock): void {
  const left = DAY - (clock.now() % DAY);
  if (left < 10 * 60_000) clock.advance(left + 60_000);
}

/** A replica as the App runs one: its own clients, caches and configuration loader (`.github/bosun.yml` at the default branch). */
function appReplica(fx: Fixture, holder: string): { ticker: RepoTicker; config: () => Promise<BosunConfig>; tick: () => Promise<TickView> } {
  const octokit = createTestOctokit(fx.fake.url, "t-bot");
  const ticker = new RepoTicker(octokit, { ...OWNER_REPO, botLogin: BOT, defaultBranch: "main", holder, clock: fx.clock, journal: new MemoryJournal() });
  const loader = createConfigLoader({ now: () => fx.clock.now() });
  const config = async (): Promise<BosunConfig> => (await loader.load(octokit, OWNER_REPO)).config;
  return { ticker, config, tick: async () => (await ticker.tick(await config())).view };
}

/** Every claim record on the fake, by item. */
function records(fx: Fixture): Map<number, ClaimRecord> {
  const out = new Map<number, ClaimRecord>();
  for (const [ref, sha] of fx.fake.repo(REPO).refs) {
    const n = Number(ref.slice("refs/bosun/claims/".length));
    if (!ref.startsWith("refs/bosun/claims/") || !Number.isInteger(n) || n <= 0) continue;
    const r = parseClaimMessage(fx.fake.repo(REPO).commits.get(sha)?.message ?? "", ref);
    if (r !== undefined) out.set(n, r);
  }
  return out;
}

/** What the claim records say today's window has used: reported costs, kept reservations, reservations in flight. */
function usedToday(fx: Fixture): number {
  const start = fx.clock.now() - (fx.clock.now() % DAY);
  let used = 0;
  for (const r of records(fx).values()) for (const m of r.spend ?? []) if (m.at >= start) used += countedMicros(m);
  return used;
}

const runsOf = (fx: Fixture, items: readonly number[]) => items.flatMap((n) => fx.runsOf(n).map((r) => ({ n, ...r })));
const live = (fx: Fixture, items: readonly number[]): number => runsOf(fx, items).filter((r) => r.status !== "completed").length;
const reasonIn = (view: TickView, n: number): string | undefined => view.queue.flatMap((q) => q.items).find((i) => i.n === n)?.reason;

/** The work workflow's three jobs for item `n`'s run, its agent reporting `usd` (the land job records it in the claim record). */
async function workReports(fx: Fixture, n: number, usd: number): Promise<void> {
  const comment = [...fx.fake.repo(REPO).comments.values()].find((c) => c.issueNumber === n && c.body.includes('"hash"'));
  const hash = /"hash": "(sha256:[0-9a-f]+)"/.exec(comment?.body ?? "")?.[1] ?? "";
  const run = fx.runsOf(n)[0];
  if (run === undefined) throw new Error(`#${n} has no run`);
  // Done, with no pull request opened: the landing goes to a human, and its cost is spend nobody accepted.
  // The agent is handed its share, what the grant reserved ($0.50): without it, it writes no result
  // and its reservation stays as spent, which the figures below would show.
  const agent = `[ "$BOSUN_BUDGET_USD" = "0.5" ] || exit 3; echo '{"kind":"done","cost":{"tokens":10,"usd":${usd}}}' > "$BOSUN_RESULT"`;
  const phases = await runWorkPhases(fx.fake.url, { item: String(n), epoch: String(run.epoch), "brief-hash": hash, "agent-command": agent }, {}, undefined, { sha: fx.fake.repo(REPO).refs.get("refs/heads/main") ?? "", runId: run.id });
  expect([...phases.check.failures, ...(phases.agent?.failures ?? []), ...(phases.land?.failures ?? [])]).toEqual([]);
  fx.fake.completeWorkflowRun(REPO, run.id, "success");
}

describe("a fleet budget across two replicas on the fake GitHub", () => {
  it("a day cap that fits three reservations: never more than three in flight or spent across both replicas, the rest held by budget and not failed, and raising the cap in the config releases them", async () => {
    f = await schedulerFixture(configText(1.5));
    const fx = f;
    awayFromMidnight(fx.clock);
    fx.fake.setFile(REPO, "main", ".github/bosun.yml", configText(1.5));
    const items: number[] = [];
    for (let i = 0; i < 6; i++) items.push(await fx.queue(`item-${i}`));
    const [a, b] = [appReplica(fx, "replica-a"), appReplica(fx, "replica-b")];
    const cap = 1.5 * M;

    let views: TickView[] = [];
    for (let round = 0; round < 3; round++) {
      views = await Promise.all([a.tick(), b.tick()]);
      expect(live(fx, items)).toBeLessThanOrEqual(3);
      expect(usedToday(fx)).toBeLessThanOrEqual(cap);
      fx.clock.advance(5_000);
    }
    const dispatched = runsOf(fx, items);
    expect(dispatched).toHaveLength(3);
    expect(new Set(dispatched.map((r) => r.n)).size).toBe(3);
    expect(usedToday(fx)).toBe(cap);
    const flying = dispatched.map((r) => r.n);
    const held = items.filter((n) => !flying.includes(n));
    // Held, not failed: still queued under their approval, nothing written for them but the approval.
    for (const n of held) {
      expect(records(fx).get(n)).toMatchObject({ state: "approved", epoch: 0 });
      expect(fx.labelsOf(n)).toEqual(["bosun:queued", "bosun:ready"]);
    }
    const last = views[1] as TickView;
    expect(reasonIn(last, held[0] as number)).toMatch(/^held by budget: budgets\.fleet\.day_usd has \$0\.00 left of its UTC day, the item reserves \$0\.50; resets /);
    for (const n of held.slice(1)) expect(reasonIn(last, n)).toMatch(/^held by budget, behind #/);
    expect(last.idle).toBe(false);

    // The runs end. The first's land job reports $0.50, the second reports nothing (its run just
    // fails: the reservation stays spent), the third's land job reports $0.10.
    const [x, y, z] = flying as [number, number, number];
    await workReports(fx, x, 0.5);
    fx.fake.completeWorkflowRun(REPO, fx.runsOf(y)[0]?.id ?? 0, "failure");
    await workReports(fx, z, 0.1);
    for (let round = 0; round < 2; round++) {
      views = await Promise.all([a.tick(), b.tick()]);
      fx.clock.advance(5_000);
    }
    expect(records(fx).get(x)?.spend).toMatchObject([{ reserveMicros: 0.5 * M, costMicros: 0.5 * M }]);
    expect(records(fx).get(y)?.spend).toEqual([expect.not.objectContaining({ costMicros: expect.anything() as unknown })]);
    expect(records(fx).get(z)?.spend).toMatchObject([{ reserveMicros: 0.5 * M, costMicros: 0.1 * M }]);
    // $1.10 spent: $0.40 left, less than an item reserves. Nothing more runs; with nothing in flight the fleet is paused, not idle.
    expect(usedToday(fx)).toBe(1.1 * M);
    expect(runsOf(fx, items)).toHaveLength(3);
    const paused = views[0] as TickView;
    expect(paused.idle).toBe(false);
    expect(paused.paused).toMatch(/^held by budget: budgets\.fleet\.day_usd has \$0\.40 left/);
    for (const n of held) expect(records(fx).get(n)?.state).toBe("approved");

    // The dashboard the App renders from this view: spend against the cap, spend on failed runs.
    const dash = renderDashboard(schedulerDashboardState({ repo: REPO, now: fx.clock.now(), config: await a.config(), problems: [], view: paused, recentLands: [] }));
    expect(dash).toContain("**Paused by budget**: 3 queued, nothing in flight");
    expect(dash).toMatch(/\| `budgets\.fleet\.day_usd`: \$1\.50 per UTC day \| \$1\.10 \| \$0\.00 \| \$0\.40 \| \d{4}-\d\d-\d\d 00:00 UTC \|/);
    expect(dash).toContain("Spent today (UTC): $1.10 — $0.00 on accepted work, $1.10 on runs that failed, were refused or were never accepted, $0.00 on runs in flight or in review.");

    // A maintainer raises the cap to $3.00 in .github/bosun.yml: exactly the held items run.
    fx.fake.setFile(REPO, "main", ".github/bosun.yml", configText(3));
    for (let round = 0; round < 2; round++) {
      await Promise.all([a.tick(), b.tick()]);
      expect(usedToday(fx)).toBeLessThanOrEqual(3 * M);
      fx.clock.advance(5_000);
    }
    expect(runsOf(fx, held).map((r) => r.n).sort()).toEqual([...held].sort());
    expect(runsOf(fx, items)).toHaveLength(6);
    expect(usedToday(fx)).toBe(2.6 * M);
  }, 60_000);

  it("a replica that decided from a state the other has since granted from cannot spend past the cap", async () => {
    f = await schedulerFixture(configText(0.1));
    const fx = f;
    awayFromMidnight(fx.clock);
    // Two items recorded as approved while the cap had no room for them.
    const early = [await fx.queue("early-1"), await fx.queue("early-2")];
    await fx.replica("c", undefined, configOf(configText(0.1))).tick();
    expect(runsOf(fx, early)).toEqual([]);
    const cap = configOf(configText(1));

    // A plans to grant both under a $1.00 cap, then stalls at the screen, before its write.
    const real = octokitTickGitHub(createTestOctokit(fx.fake.url, "t-bot"), { ...OWNER_REPO, botLogin: BOT, defaultBranch: "main", now: () => fx.clock.now() });
    let screened!: () => void;
    let resume!: () => void;
    const atScreen = new Promise<void>((r) => (screened = r));
    const gate = new Promise<void>((r) => (resume = r));
    let stalled = false;
    const github: TickGitHub = {
      ...real,
      evidence: async (n, neverClaimed) => {
        if (!stalled) {
          stalled = true;
          screened();
          await gate;
        }
        return real.evidence(n, neverClaimed);
      },
    };
    const a = new RepoTicker(createTestOctokit(fx.fake.url, "t-bot"), { ...OWNER_REPO, botLogin: BOT, defaultBranch: "main", holder: "a", clock: fx.clock, journal: new MemoryJournal(), github });
    const slow = a.tick(cap);
    await atScreen;
    // Meanwhile two P0 items are approved and replica B grants them: the $1.00 is all reserved.
    const urgent = [await fx.queue("urgent-1", "priority: 0"), await fx.queue("urgent-2", "priority: 0")];
    expect([...(await fx.replica("b", undefined, cap).tick()).dispatched].sort()).toEqual([...urgent].sort());
    resume();
    const late = await slow;
    expect(late.dispatched).toEqual([]);
    expect(runsOf(fx, [...early, ...urgent]).map((r) => r.n).sort()).toEqual([...urgent].sort());
    expect(usedToday(fx)).toBe(1 * M);
    for (const n of early) expect(reasonIn(late.view, n)).toMatch(/held by budget/);
  }, 60_000);

  it("a settled claim ref whose spend a window may still count is not cleaned up: its marks are the only record of that spend", async () => {
    f = await schedulerFixture(configText(1));
    const fx = f;
    const n = await fx.queue("spent");
    const a = appReplica(fx, "a");
    fx.fake.setFile(REPO, "main", ".github/bosun.yml", configText(1));
    await a.tick();
    fx.fake.completeWorkflowRun(REPO, fx.runsOf(n)[0]?.id ?? 0, "failure");
    await a.tick();
    const ref = `refs/bosun/claims/${n}`;
    const r = records(fx).get(n);
    expect(r).toMatchObject({ state: "settled", spend: [{ reserveMicros: 0.5 * M }] });
    const store = a.ticker.store(await a.config());
    const sha = fx.fake.repo(REPO).refs.get(ref) ?? "";
    // Settled a moment ago, reserved today: a cleanup of everything settled until a minute from now leaves it.
    expect(await store.forget(ref, sha, fx.clock.now() + 60_000)).toBe(false);
    expect(fx.fake.repo(REPO).refs.get(ref)).toBe(sha);
    // Past every window a cap covers, it goes (to its epoch floor, as before).
    expect(await store.forget(ref, sha, (r?.spend?.[0]?.at ?? 0) + SPEND_KEPT_MS + 1)).toBe(true);
    expect(fx.fake.repo(REPO).refs.get(ref)).toBeUndefined();
  }, 60_000);
});
