/**
 * The chaos run behind `npm run bench -- chaos` and `chaos.test.ts`: several app replicas tick one
 * repository on the fake GitHub while workers die, webhooks are dropped or duplicated, and GitHub
 * answers spurious 422s and 5xx. Everything is drawn from seeded PRNGs, so a seed replays.
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
  /**
   * A replica runs one tick at a time, keeping at most one trigger waiting (the issue's "coalesced").
   * false: a replica handles deliveries concurrently, as a Probot server does unless told otherwise.
   */
  readonly coalesce?: boolean;
  /** Called with one line of progress now and then. */
  readonly log?: (line: string) => void;
}

export const CHAOS_DEFAULTS: Omit<ChaosOptions, "seed"> = { replicas: 8, items: 200, pools: 2, poolSize: 4, maxSteps: 6000, death: 0.08, failure: 0.1, drop: 0.05, duplicate: 0.1, faultRate: 0.03, outage: 0.01 };

export interface ChaosResult {
  readonly landed: number;
  /** Items neither landed nor still queued at the end (a settled claim counts as not queued). */
  readonly lost: number;
  /** Items not landed when the seed stopped (still queued or in flight). */
  readonly unfinished: number;
  readonly doubleDispatch: number;
  readonly unfencedDispatch: number;
  readonly falseIdle: number;
  readonly ticks: number;
  readonly busyTicks: number;
  readonly tickErrors: number;
  readonly faultsFired: number;
  readonly steps: number;
  readonly runs: number;
  readonly deadWorkers: number;
  readonly reclaims: number;
  readonly orphanClaims: number;
  readonly longestOrphanMs: number;
  readonly discardedSuccesses: number;
  /** Grants past a pool's size (0: pools stayed bounded across all replicas), and the most live claims a pool held. */
  readonly poolOverfill: number;
  readonly maxPoolLive: number;
  readonly requests: number;
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

export async function runChaos(options: ChaosOptions): Promise<ChaosResult> {
  const o = options;
  const rand = seededRandom(mixSeed(o.seed, 1));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
  const clock = new ManualClock(Date.UTC(2026, 0, 1));
  // One clock for the fake and the replicas: request-log times and claim leases share a timeline.
  const fake = await createFakeGitHub({ clock, seed: o.seed });
  try {
    fake.addRepo({ fullName: REPO });
    fake.addToken("t-bot", "bosun[bot]", { permissions: { [REPO]: "write" } });
    fake.addWorkflow(REPO, { path: `.github/workflows/${WORKFLOW}`, name: "bosun work", runName: "bosun #${{ inputs.item }} epoch ${{ inputs.epoch }}" });
    const parsed = parseConfig(chaosConfig(o.pools, o.poolSize));
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
    const config = parsed.config;
    const items = await queueItems(fake.url, o.items, o.pools, (title, labels) => fake.addIssue(REPO, { title, labels: [config.labels.ready, config.labels.queued, ...labels] }).number);

    const observer = new ChaosObserver(fake, REPO, PREFIX, () => clock.now());
    addFaults(fake, o.faultRate);
    const replicas = Array.from({ length: o.replicas }, (_, i) => replicaDeps(fake.url, `replica-${i}`, config, clock));

    const fate = new Map<number, { dueAt: number; conclusion: "success" | "failure" | "timed_out" } | "dead">();
    let ticks = 0;
    let busyTicks = 0;
    let tickErrors = 0;
    let falseIdle = 0;
    let reclaims = 0;
    let events = 0; // GitHub events since the last step: each would be one webhook delivery
    const details: string[] = [];
    const landedLabels = new Set<string>([config.labels.done, config.labels.needsHuman]);
    const outOfQueue = new Set<string>([...landedLabels, config.labels.hold, config.labels.invalidBrief]);

    /** Items the fleet still owes work on, read from the fake: queued and not settled, or claimed. */
    const owed = (): number[] =>
      items.filter((n) => {
        const labels = fake.repo(REPO).issues.get(n)?.labels ?? [];
        const claim = observer.claimNow(n);
        if (claim?.state === "held") return true;
        return labels.includes(config.labels.queued) && !labels.some((l) => outOfQueue.has(l)) && claim?.state !== "settled";
      });

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

    let nextSchedule = clock.now();
    let step = 0;
    for (; step < o.maxSteps; step++) {
      const down = rand() < o.outage;
      clock.advance(down ? LEASE_MS + 10_000 + Math.floor(rand() * 60_000) : 5_000 + Math.floor(rand() * 15_000));
      // Workers: new runs get their fate; due ones finish (each completion is a webhook).
      for (const run of observer.runs.values()) {
        if (!fate.has(run.id)) {
          const dies = rand() < o.death;
          const failed = rand() < o.failure;
          fate.set(run.id, dies ? "dead" : { dueAt: clock.now() + 10_000 + Math.floor(rand() * 110_000), conclusion: failed ? (rand() < 0.2 ? "timed_out" : "failure") : "success" });
        }
        const f = fate.get(run.id);
        if (f !== undefined && f !== "dead" && run.completed === undefined && f.dueAt <= clock.now()) {
          observer.complete(run.id, f.conclusion);
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
    const final = items.map((n) => ({ n, labels: fake.repo(REPO).issues.get(n)?.labels ?? [], claim: observer.claimNow(n) }));
    const landed = final.filter((x) => x.labels.some((l) => landedLabels.has(l)));
    const lost = final.filter((x) => !x.labels.some((l) => landedLabels.has(l)) && (!x.labels.includes(config.labels.queued) || x.claim?.state === "settled"));
    for (const x of lost.slice(0, 5)) details.push(`lost #${x.n}: labels [${x.labels.join(", ")}], claim ${x.claim === undefined ? "none" : `${x.claim.state} epoch ${x.claim.epoch}`}`);
    return {
      landed: landed.length,
      lost: lost.length,
      unfinished: items.length - landed.length,
      doubleDispatch: judged.doubleDispatch,
      unfencedDispatch: judged.unfencedDispatch,
      falseIdle,
      ticks,
      busyTicks,
      tickErrors,
      faultsFired: fake.faults.fired.length,
      steps: step,
      runs: observer.runs.size,
      deadWorkers: [...fate.values()].filter((f) => f === "dead").length,
      reclaims,
      orphanClaims: judged.orphanClaims,
      longestOrphanMs: judged.longestOrphanMs,
      discardedSuccesses: judged.discardedSuccesses,
      poolOverfill: judged.poolOverfill,
      maxPoolLive: judged.maxPoolLive,
      requests: fake.accounting.log.length,
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

/** Seeded faults from the fake's PRNG: on ref writes (REST and GraphQL batches) 422s and 5xx that may have applied; 5xx on reads. */
function addFaults(fake: Awaited<ReturnType<typeof createFakeGitHub>>, rate: number): void {
  if (rate <= 0) return;
  // Ref writes: REST (single landings) and GraphQL (a tick's batch, all refs or none).
  const refWrites = /^((POST|PATCH) \/repos\/\{owner\}\/\{repo\}\/git\/refs|POST \/graphql$)/;
  const reads = /^GET \/repos\/\{owner\}\/\{repo\}\/(git\/ref\/|git\/matching-refs\/|issues$|issues\/\{issue_number\}\/comments$|actions\/runs$)/;
  fake.faults.add({ kind: "spurious-422", route: refWrites, probability: rate, applied: 0.5 });
  fake.faults.add({ kind: "error", status: 502, route: refWrites, probability: rate / 2, applied: 0.5 });
  fake.faults.add({ kind: "error", status: 503, route: reads, probability: rate / 3 });
}

/** One replica: its own Octokit client, claim store and caches, and its own holder name. */
function replicaDeps(url: string, holder: string, config: TickDeps["config"], clock: ManualClock): TickDeps {
  const client = createTestOctokit(url, "t-bot");
  const store = new GitHubClaimStore({ refs: octokitClaimRefs(client, "acme", "app"), prefix: config.claims.ref_prefix });
  const github = octokitSchedulerGitHub(client, { owner: "acme", repo: "app", botLogin: "bosun[bot]", defaultBranch: "main" });
  return { github, store, claims: new GuardedClaimStore(store, store), config, clock, journal: new MemoryJournal(), holder, shadow: { ticks: 0, differing: 0 } };
}
