/**
 * The chaos run behind `npm run bench -- chaos` and `chaos.test.ts`: several app replicas, each on
 * its own slightly wrong clock, tick one repository on the fake GitHub while workers die, webhooks
 * are dropped or duplicated, and GitHub answers spurious 422s and 5xx — including writes (GraphQL
 * `updateRefs`, label writes, dispatches) that applied and still answered 502 — serves lagging
 * reads (a listing, an issue or a ref as it was seconds ago) and listings that shift between pages.
 * Everything is drawn from seeded PRNGs, so a seed replays. It is judged by `ChaosObserver` from
 * the fake's own records, never from the replicas' claim state.
 */
import { createFakeGitHub } from "../../fake-github/create-fake-github.js";
import { createTestOctokit } from "../../fake-github/test-octokit.js";
import { octokitClaimRefs } from "../../../src/adapters/github/claim-refs-api.js";
import { GitHubClaimStore } from "../../../src/adapters/github/github-claim-store.js";
import { ManualClock } from "../../../src/adapters/memory/manual-clock.js";
import { MemoryJournal } from "../../../src/adapters/memory/memory-journal.js";
import { parseBriefYaml } from "../../../src/core/brief/parse-brief.js";
import { renderSnapshotComment } from "../../../src/core/brief/snapshot.js";
import { GuardedClaimStore } from "../../../src/core/claims/guarded-claim-store.js";
import { parseConfig } from "../../../src/core/config/parse-config.js";
import { mixSeed, seededRandom } from "../../../src/core/random/seeded-random.js";
import { octokitSchedulerGitHub } from "../../../src/app/scheduler/octokit-scheduler-github.js";
import { reconcileTick } from "../../../src/app/scheduler/reconcile-tick.js";
import type { TickDeps, TickReport } from "../../../src/app/scheduler/reconcile-tick.js";
import type { Clock } from "../../../src/core/engine/clock.js";
import type { BosunConfig } from "../../../src/core/config/bosun-config.js";
import { ChaosObserver } from "./chaos-observer.js";

export interface ChaosOptions {
  readonly seed: number;
  readonly replicas: number;
  readonly items: number;
  /** Pools, each of `poolSize`; items are spread over them by `pool/<name>` labels. */
  readonly pools: number;
  readonly poolSize: number;
  /** Steps before giving up on a seed (each step moves the clock 5–20 s). */
  readonly maxSteps: number;
  /** Chance a dispatched run's worker dies: the run stays in progress forever. */
  readonly death: number;
  /** Chance a finished run failed (otherwise success; a fifth of failures are timeouts). */
  readonly failure: number;
  readonly drop: number;
  readonly duplicate: number;
  /** Base chance of a fault per matching request (422s and 5xx on ref writes, 5xx on some reads). */
  readonly faultRate: number;
  /** Chance per step that every replica is down for longer than a lease (a deploy, an outage). */
  readonly outage: number;
  /** Each replica's clock is off by up to this many ms either way (seeded per replica). */
  readonly skewMs?: number;
  /** Chance a listing, issue or ref GET is served by a lagging replica, and how far behind it is (fake-clock ms). */
  readonly staleRate?: number;
  readonly lagMs?: number;
  /** Chance page 2 or later of a REST listing is shifted by one record (the list changed since page 1). */
  readonly pageShiftRate?: number;
  /** How long GitHub takes to fail a run whose runner died (fake-clock ms, drawn up to twice this). */
  readonly runnerLostMs?: number;
  /**
   * A replica runs one tick at a time, keeping at most one trigger waiting (the issue's "coalesced").
   * false: a replica handles deliveries concurrently, as a Probot server does unless told otherwise.
   */
  readonly coalesce?: boolean;
  /** Called with one line of progress now and then. */
  readonly log?: (line: string) => void;
}

export const CHAOS_DEFAULTS: Omit<ChaosOptions, "seed"> = {
  replicas: 8,
  items: 200,
  pools: 2,
  poolSize: 4,
  maxSteps: 6000,
  death: 0.08,
  failure: 0.1,
  drop: 0.05,
  duplicate: 0.1,
  faultRate: 0.03,
  outage: 0.01,
  skewMs: 5_000,
  staleRate: 0.05,
  lagMs: 30_000,
  pageShiftRate: 0.05,
  runnerLostMs: 600_000,
};

export interface ChaosResult {
  readonly landed: number;
  /** Items with neither an outcome label nor `bosun:queued` at the end: nobody owes them work any more, yet they never landed. */
  readonly lost: number;
  /** Items not landed when the seed stopped (still queued or in flight). */
  readonly unfinished: number;
  /** Runs dispatched while another run of the item was in progress on GitHub, or after it landed done (see `Judgement`). */
  readonly doubleDispatch: number;
  readonly twoLiveWorkers: number;
  readonly unfencedDispatch: number;
  /** Items labelled done though no run of theirs succeeded. */
  readonly falseDone: number;
  readonly falseIdle: number;
  readonly ticks: number;
  readonly busyTicks: number;
  readonly tickErrors: number;
  readonly faultsFired: number;
  readonly steps: number;
  readonly runs: number;
  readonly deadWorkers: number;
  readonly reclaims: number;
  /** Lapsed leases renewed because their run still ran (the rule that replaced reclaiming live work). */
  readonly revived: number;
  readonly orphanClaims: number;
  readonly longestOrphanMs: number;
  readonly discardedSuccesses: number;
  /** Dispatches past a pool's size in runs in progress on GitHub (0: pools stayed bounded), and the most a pool had at once. */
  readonly poolOverfill: number;
  readonly maxPoolLive: number;
  readonly requests: number;
  /** Faults fired by kind: lagging reads and page shifts among them, so a test can tell they happened. */
  readonly staleReads: number;
  readonly pageShifts: number;
  readonly appliedErrors: number;
  readonly details: string[];
}

const REPO = "acme/app";
const WORKFLOW = "bosun-work.yml";
const PREFIX = "refs/bosun/claims/";
const LEASE_MS = 120_000;

/** The configuration: `pools` workflow pools named p0, p1, … and a short lease so deaths are found fast. */
function chaosConfig(pools: number, size: number): string {
  const lines = Array.from({ length: pools }, (_, i) => `  p${i}: {size: ${size}, dispatch: {kind: workflow, workflow: ${WORKFLOW}}}`);
  return `pools:\n${lines.join("\n")}\nlease: 2m\nattempts: 5\n`;
}

/** What a chaos run is made of: the fake, the configuration, the replicas and the observer. */
export interface ChaosWorld {
  readonly fake: Awaited<ReturnType<typeof createFakeGitHub>>;
  readonly clock: ManualClock;
  readonly config: BosunConfig;
  readonly observer: ChaosObserver;
  readonly replicas: TickDeps[];
  readonly items: number[];
}

/**
 * A repository with `items` queued issues, `replicas` app replicas (each with its own clients,
 * caches and a clock off by its `skews` entry) and an observer watching the fake. The caller
 * closes `fake`. `onCancelled` hears of runs a cancel ended (their workers stop).
 */
export async function chaosWorld(o: { seed: number; items: number; pools: number; poolSize: number; skews: readonly number[]; onCancelled?: (runId: number) => void }): Promise<ChaosWorld> {
  const clock = new ManualClock(Date.UTC(2026, 0, 1));
  // One timeline for the fake and the replicas (each replica reads it through its own skew).
  const fake = await createFakeGitHub({ clock, seed: o.seed });
  fake.addRepo({ fullName: REPO });
  fake.addToken("t-bot", "bosun[bot]", { permissions: { [REPO]: "write" } });
  fake.addWorkflow(REPO, { path: `.github/workflows/${WORKFLOW}`, name: "bosun work", runName: "bosun #${{ inputs.item }} epoch ${{ inputs.epoch }}" });
  const parsed = parseConfig(chaosConfig(o.pools, o.poolSize));
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  const config = parsed.config;
  const items = await queueItems(fake.url, o.items, o.pools, (title, labels) => fake.addIssue(REPO, { title, labels: [config.labels.ready, config.labels.queued, ...labels] }).number);
  const observer = new ChaosObserver(fake, REPO, PREFIX, () => clock.now(), config.labels.done, o.onCancelled);
  const replicas = o.skews.map((skew, i) => replicaDeps(fake.url, `replica-${i}`, config, skewed(clock, skew)));
  return { fake, clock, config, observer, replicas, items };
}

/** A replica's view of the shared clock, `skew` ms off. */
function skewed(clock: ManualClock, skew: number): Clock {
  return { now: () => clock.now() + skew, sleep: (ms, signal) => clock.sleep(ms, signal) };
}

type Fate = { kind: "finishes"; dueAt: number; conclusion: "success" | "failure" | "timed_out" } | { kind: "dead"; failsAt: number } | { kind: "cancelled" };

export async function runChaos(options: ChaosOptions): Promise<ChaosResult> {
  const o = options;
  const rand = seededRandom(mixSeed(o.seed, 1));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
  const skewMs = o.skewMs ?? 0;
  const skews = Array.from({ length: o.replicas }, () => Math.round((rand() * 2 - 1) * skewMs));
  const fate = new Map<number, Fate>();
  const world = await chaosWorld({ seed: o.seed, items: o.items, pools: o.pools, poolSize: o.poolSize, skews, onCancelled: (id) => fate.set(id, { kind: "cancelled" }) });
  const { fake, clock, config, observer, replicas, items } = world;
  try {
    addFaults(fake, o);

    let ticks = 0;
    let busyTicks = 0;
    let tickErrors = 0;
    let falseIdle = 0;
    let reclaims = 0;
    let revived = 0;
    let events = 0; // GitHub events since the last step: each would be one webhook delivery
    const details: string[] = [];
    const landedLabels = new Set<string>([config.labels.done, config.labels.needsHuman]);
    const labelsOf = (n: number): readonly string[] => fake.repo(REPO).issues.get(n)?.labels ?? [];

    /**
     * Items the fleet still owes work on, read from the fake alone: no outcome label yet, or a
     * run in progress whose worker (by the simulation's record) is still working.
     */
    const owed = (): number[] => {
      const working = new Set([...observer.runs.values()].filter((r) => r.completed === undefined && r.workerEnded === undefined).map((r) => r.item));
      return items.filter((n) => working.has(n) || !labelsOf(n).some((l) => landedLabels.has(l)));
    };

    /** One tick; a throw is counted and survived, as the app's handler would log it and wait for the next trigger. */
    async function tick(deps: TickDeps): Promise<void> {
      ticks++;
      let report: TickReport;
      try {
        report = await reconcileTick(deps);
      } catch (err) {
        tickErrors++;
        if (tickErrors <= 3) details.push(`tick error (${deps.holder}): ${err instanceof Error ? err.message.split("\n")[0] : String(err)}`);
        return;
      }
      if (report.busy) busyTicks++;
      reclaims += report.reclaimed.length;
      revived += report.revived.length;
      events += report.dispatched.length + report.landed.length + report.reclaimed.length;
      if (report.idle) {
        // Judged at the moment the tick answers: nothing else moves the fake until this step's ticks end.
        const left = owed();
        if (left.length > 0) {
          falseIdle++;
          details.push(`false idle by ${deps.holder} at ${new Date(clock.now()).toISOString()}: ${left.length} item(s) owed, e.g. #${left.slice(0, 5).join(", #")}`);
        }
      }
    }

    /** A replica coalesces its triggers: one tick running and at most one waiting (or, uncoalesced, all at once). */
    async function tickReplica(deps: TickDeps, triggers: number): Promise<void> {
      if (o.coalesce === false) {
        await Promise.all(Array.from({ length: triggers }, () => tick(deps)));
        return;
      }
      for (let i = 0; i < Math.min(triggers, 2); i++) await tick(deps);
    }

    const runnerLost = o.runnerLostMs ?? 600_000;
    let nextSchedule = clock.now();
    let step = 0;
    for (; step < o.maxSteps; step++) {
      const down = rand() < o.outage;
      clock.advance(down ? LEASE_MS + 10_000 + Math.floor(rand() * 60_000) : 5_000 + Math.floor(rand() * 15_000));
      // Workers: new runs get their fate; due ones finish (each completion is a webhook). A dead
      // worker stops at once, but GitHub fails its run only once it notices the runner is gone.
      for (const run of observer.runs.values()) {
        if (!fate.has(run.id)) {
          const dies = rand() < o.death;
          const failed = rand() < o.failure;
          if (dies) {
            fate.set(run.id, { kind: "dead", failsAt: clock.now() + runnerLost + Math.floor(rand() * runnerLost) });
            observer.workerStopped(run.id);
          } else fate.set(run.id, { kind: "finishes", dueAt: clock.now() + 10_000 + Math.floor(rand() * 110_000), conclusion: failed ? (rand() < 0.2 ? "timed_out" : "failure") : "success" });
        }
        const f = fate.get(run.id);
        if (f === undefined || !observer.inProgress(run.id)) continue;
        if ((f.kind === "finishes" && f.dueAt <= clock.now()) || (f.kind === "dead" && f.failsAt <= clock.now())) {
          observer.complete(run.id, f.kind === "finishes" ? f.conclusion : "failure");
          events++;
        }
      }
      // Webhooks: each event triggers a tick on a random replica, unless dropped; some twice. While
      // every replica is down, deliveries are lost (GitHub does not redeliver on its own).
      const triggers = new Map<TickDeps, number>();
      const trigger = (): void => {
        const r = pick(replicas);
        triggers.set(r, (triggers.get(r) ?? 0) + 1);
      };
      for (let e = 0; e < (down ? 0 : events); e++) {
        const roll = rand();
        if (roll < o.drop) continue;
        trigger();
        if (roll < o.drop + o.duplicate) trigger();
      }
      events = 0;
      // The schedule recovers lost webhooks: one tick a minute on some replica.
      if (clock.now() >= nextSchedule) {
        trigger();
        nextSchedule = clock.now() + 60_000;
      }
      await Promise.all([...triggers].map(([deps, n]) => tickReplica(deps, n)));
      if (step % 200 === 0) o.log?.(`seed ${o.seed} step ${step}: ${owed().length} owed, ${ticks} ticks, ${observer.runs.size} runs`);
      if (owed().length === 0) {
        // Done: one more tick must say idle (and that is judged like any other).
        await tick(replicas[0] as TickDeps);
        break;
      }
    }

    // queueItems spreads items over pools by index: items[i] is in pool p(i mod pools).
    const poolOf = new Map(items.map((n, i) => [n, `p${i % o.pools}`]));
    const judged = observer.judge(items, { of: (n) => poolOf.get(n) ?? "?", size: o.poolSize });
    const final = items.map((n) => ({ n, labels: labelsOf(n), claim: observer.claimNow(n) }));
    const landed = final.filter((x) => x.labels.some((l) => landedLabels.has(l)));
    const lost = final.filter((x) => !x.labels.some((l) => landedLabels.has(l)) && !x.labels.includes(config.labels.queued));
    for (const x of lost.slice(0, 5)) details.push(`lost #${x.n}: labels [${x.labels.join(", ")}], claim ${x.claim === undefined ? "none" : `${x.claim.state} epoch ${x.claim.epoch}`}`);
    const fired = (kind: string): number => fake.faults.fired.filter((f) => f.kind === kind).length;
    return {
      landed: landed.length,
      lost: lost.length,
      unfinished: items.length - landed.length,
      doubleDispatch: judged.doubleDispatch,
      twoLiveWorkers: judged.twoLiveWorkers,
      unfencedDispatch: judged.unfencedDispatch,
      falseDone: judged.falseDone,
      falseIdle,
      ticks,
      busyTicks,
      tickErrors,
      faultsFired: fake.faults.fired.length,
      steps: step,
      runs: observer.runs.size,
      deadWorkers: [...fate.values()].filter((f) => f.kind === "dead").length,
      reclaims,
      revived,
      orphanClaims: judged.orphanClaims,
      longestOrphanMs: judged.longestOrphanMs,
      discardedSuccesses: judged.discardedSuccesses,
      poolOverfill: judged.poolOverfill,
      maxPoolLive: judged.maxPoolLive,
      requests: fake.accounting.log.length,
      staleReads: fired("stale-read"),
      pageShifts: fired("page-shift"),
      appliedErrors: fake.accounting.log.filter((e) => e.fault === "error" && e.method !== "GET").length,
      details: [...details, ...judged.details.slice(0, 10)],
    };
  } finally {
    await fake.close();
  }
}

/** Issues as the intake leaves them: labels (`pool/<name>` spreads them) and the bot's snapshot comment. */
async function queueItems(url: string, count: number, pools: number, addIssue: (title: string, labels: string[]) => number): Promise<number[]> {
  const octokit = createTestOctokit(url, "t-bot");
  const numbers: number[] = [];
  for (let start = 0; start < count; start += 25) {
    const batch = Array.from({ length: Math.min(25, count - start) }, (_, k) => start + k);
    numbers.push(
      ...(await Promise.all(
        batch.map(async (i) => {
          const id = `item-${i}`;
          // wall_clock 1m keeps the first lease at the config's 2m (the lease is the longer of the two).
          const brief = parseBriefYaml(`goal: Work on ${id}.\nconstraints: {paths: [src/**]}\nacceptance: {command: npm test}\nsize_cap: 100\nclaim_key: task:${id}\nbudget: {wall_clock: 1m}\npriority: ${i % 5}\n`, { name: id, defaultId: id });
          if (!brief.ok) throw new Error(JSON.stringify(brief.problems));
          const n = addIssue(`Work on ${id}`, [`pool/p${i % pools}`]);
          await octokit.issues.createComment({ owner: "acme", repo: "app", issue_number: n, body: renderSnapshotComment(brief.brief) });
          return n;
        }),
      )),
    );
  }
  return numbers;
}

/** Reads that can lag or shift: the listings and single reads the tick makes. */
export const LAGGING_READS = /^GET \/repos\/\{owner\}\/\{repo\}\/(git\/ref\/|git\/matching-refs\/|issues$|issues\/\{issue_number\}$|issues\/\{issue_number\}\/comments$|actions\/runs$)/;
const LISTINGS = /^GET \/repos\/\{owner\}\/\{repo\}\/(issues$|actions\/runs$|git\/matching-refs\/)/;

/**
 * Seeded faults from the fake's PRNG. Writes: 422s and 5xx on ref writes (REST and GraphQL batches)
 * that may have applied; label writes and dispatches that applied and answered 502. Reads: 5xx,
 * lagging reads (the repository as it was `lagMs` ago) and listings shifted between pages.
 */
function addFaults(fake: Awaited<ReturnType<typeof createFakeGitHub>>, o: ChaosOptions): void {
  const rate = o.faultRate;
  if (rate > 0) {
    // Ref writes: REST (single landings) and GraphQL (a tick's batch, all refs or none).
    const refWrites = /^((POST|PATCH) \/repos\/\{owner\}\/\{repo\}\/git\/refs|POST \/graphql$)/;
    const reads = /^GET \/repos\/\{owner\}\/\{repo\}\/(git\/ref\/|git\/matching-refs\/|issues$|issues\/\{issue_number\}\/comments$|actions\/runs$)/;
    fake.faults.add({ kind: "spurious-422", route: refWrites, probability: rate, applied: 0.5 });
    fake.faults.add({ kind: "error", status: 502, route: refWrites, probability: rate / 2, applied: 0.5 });
    // Writes that applied and still answered 502: labels (add, set, remove) and dispatches.
    fake.faults.add({ kind: "error", status: 502, route: /^(POST|PUT|DELETE) \/repos\/\{owner\}\/\{repo\}\/issues\/\{issue_number\}\/labels/, probability: rate / 2, applied: true });
    fake.faults.add({ kind: "error", status: 502, route: /\/dispatches$/, probability: rate / 2, applied: true });
    fake.faults.add({ kind: "error", status: 503, route: reads, probability: rate / 3 });
    // However the dice fall, every run sees at least one write that applied and answered 502 (the
    // fault this round is about): a small run that happened to draw none would prove little.
    fake.faults.add({ kind: "error", status: 502, route: /^(POST|PUT) \/repos\/\{owner\}\/\{repo\}\/issues\/\{issue_number\}\/labels/, times: 1, applied: true });
  }
  if ((o.staleRate ?? 0) > 0) {
    fake.faults.add({ kind: "stale-read", lagMs: o.lagMs ?? 30_000, route: LAGGING_READS, probability: o.staleRate ?? 0 });
    // And at least one lagging read, for the same reason.
    fake.faults.add({ kind: "stale-read", lagMs: o.lagMs ?? 30_000, route: LAGGING_READS, times: 1 });
  }
  if ((o.pageShiftRate ?? 0) > 0) fake.faults.add({ kind: "page-shift", route: LISTINGS, probability: o.pageShiftRate ?? 0 });
}

/** One replica: its own Octokit client, claim store and caches, and its own holder name. */
function replicaDeps(url: string, holder: string, config: TickDeps["config"], clock: Clock): TickDeps {
  const client = createTestOctokit(url, "t-bot");
  const store = new GitHubClaimStore({ refs: octokitClaimRefs(client, "acme", "app"), prefix: config.claims.ref_prefix });
  const github = octokitSchedulerGitHub(client, { owner: "acme", repo: "app", botLogin: "bosun[bot]", defaultBranch: "main", now: () => clock.now() });
  return { github, store, claims: new GuardedClaimStore(store, store), config, clock, journal: new MemoryJournal(), holder, shadow: { ticks: 0, differing: 0 } };
}
