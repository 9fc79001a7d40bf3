/**
 * The chaos run behind `npm run bench -- chaos` and `chaos.test.ts`: several replicas of the
 * scheduler (each a `RepoTicker` with its own clients, caches and slightly wrong clock) tick one
 * repository on the fake GitHub while webhooks are lost or redelivered in storms to any replica,
 * replicas are killed mid-tick right after a write GitHub applied (a grant, a dispatch, a comment)
 * and come back as fresh processes, workers die, and GitHub answers spurious 422s and 5xx (writes
 * that applied and still answered 502 among them) and serves lagging reads. Workers that finish
 * open their pull request and a maintainer merges it. Everything is drawn from seeded PRNGs, so a
 * seed replays; it is judged by `ChaosObserver` from the fake's own records. A replica hears each
 * delivery as the App does (`hearDelivery`: its hints, its asks, the pull request it carries) and
 * ticks as the App's heard tick does, so a tick that stops early because its asks look answered is
 * under the same chaos; the timed sweep is a whole tick.
 */
import { Octokit } from "@octokit/rest";
import { createFakeGitHub, type FakeGitHub } from "../../fake-github/create-fake-github.js";
import { announce } from "../../fake-github/create-seed.js";
import type { TappedEvent } from "../../fake-github/create-webhooks.js";
import { createTestOctokit } from "../../fake-github/test-octokit.js";
import { RepoTicker } from "../../../src/adapters/github/tick/repo-ticker.js";
import { HEARD_ISSUE_EVENTS, HEARD_WORK_EVENTS, hearDelivery, type HeardPayload } from "../../../src/app/scheduler/hear-delivery.js";
import type { TickReport } from "../../../src/adapters/github/tick/run-tick.js";
import { ManualClock } from "../../../src/adapters/memory/manual-clock.js";
import type { BosunConfig } from "../../../src/core/config/bosun-config.js";
import { parseConfig } from "../../../src/core/config/parse-config.js";
import type { Clock } from "../../../src/core/engine/clock.js";
import type { Journal } from "../../../src/core/journal/journal-event.js";
import { mixSeed, seededRandom } from "../../../src/core/random/seeded-random.js";
import { ChaosObserver } from "./chaos-observer.js";
import { briefBody } from "./scheduler-fixture.js";

export interface ChaosOptions {
  readonly seed: number;
  readonly replicas: number;
  readonly items: number;
  /** Pools, each of `poolSize`; items are spread over them by `pool/<name>` labels. */
  readonly pools: number;
  readonly poolSize: number;
  /** Steps before giving up on a seed (each step moves the clock 5–20 s). */
  readonly maxSteps: number;
  /** Chance a dispatched run's worker dies: GitHub fails its run only once it notices the runner is gone. */
  readonly death: number;
  /** Chance a finished run failed; of the successes, a tenth open no pull request. */
  readonly failure: number;
  /** Chance a webhook delivery is lost. */
  readonly drop: number;
  /** Chance a delivery comes in a storm of redeliveries (2 to 6 copies, each to any replica). */
  readonly storm: number;
  /** Chance per step that a live replica is set to die right after its next write GitHub applies. */
  readonly kill: number;
  /** Base chance of a fault per matching request. */
  readonly faultRate: number;
  /** Chance a read is served by a lagging replica of GitHub, and how far behind it is (fake-clock ms). */
  readonly staleRate: number;
  readonly lagMs: number;
  /** Each replica's clock is off by up to this many ms either way. */
  readonly skewMs: number;
  readonly log?: (line: string) => void;
}

export const CHAOS_DEFAULTS: Omit<ChaosOptions, "seed"> = {
  replicas: 3,
  items: 6,
  pools: 2,
  poolSize: 2,
  maxSteps: 400,
  death: 0.1,
  failure: 0.1,
  drop: 0.2,
  storm: 0.2,
  kill: 0.05,
  faultRate: 0.03,
  staleRate: 0.05,
  lagMs: 20_000,
  skewMs: 3_000,
};

export interface ChaosResult {
  /** Items done (their pull request merged) or handed to a human at the end. */
  readonly landed: number;
  readonly done: number;
  /** Items that were approved and are neither done nor with a human when the run stopped. */
  readonly lost: number;
  /** Items with a human whose last run succeeded and whose pull request was opened (before the run ended): a wrong landing. */
  readonly wrongHuman: number;
  readonly doubleDispatch: number;
  readonly epochsBack: number;
  readonly falseDone: number;
  readonly falseIdle: number;
  /** Whether the last tick, with nothing left to do, said idle. */
  readonly idleAtEnd: boolean;
  readonly commentsTwice: number;
  readonly poolOverfill: number;
  readonly maxPoolLive: number;
  readonly foreignRuns: number;
  readonly kills: number;
  readonly ticks: number;
  /** Heard ticks that stopped at the claims, their asks answered (`TickReport.answered`). */
  readonly answered: number;
  /** Items an idle tick left whose labels still lagged a final record (not counted as false idle). */
  readonly mirrorLagAtIdle: number;
  readonly tickErrors: number;
  readonly deliveries: number;
  readonly dropped: number;
  readonly redelivered: number;
  readonly faultsFired: number;
  readonly staleReads: number;
  readonly appliedErrors: number;
  readonly runs: number;
  readonly deadWorkers: number;
  readonly reclaims: number;
  readonly steps: number;
  readonly requests: number;
  readonly details: string[];
}

const REPO = "acme/app";
const WORKFLOW = "bosun-work.yml";
const BOT = "bosun[bot]";
const RUNNER_LOST_MS = 240_000;
const silent = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

/** A replica: one process of the scheduler. It can be killed mid-tick and come back as a fresh process. */
interface Replica {
  ticker: RepoTicker;
  dead: boolean;
  /** Dies right after the first request GitHub applied that this says yes to. */
  dieAfter?: (method: string, url: string, body: string) => boolean;
  /** The step it comes back at, once dead. */
  backAt: number;
  generation: number;
}

type Fate = { kind: "finishes"; dueAt: number; conclusion: "success" | "failure" | "timed_out"; pull: boolean } | { kind: "dead"; failsAt: number };

function chaosConfig(pools: number, poolSize: number): BosunConfig {
  const lines = Array.from({ length: pools }, (_, i) => `  p${i}: {size: ${poolSize}, dispatch: {kind: workflow, workflow: ${WORKFLOW}}}`);
  // A short lease and dispatch deadline, so dead replicas' grants and dead workers are found within the run.
  const parsed = parseConfig(`pools:\n${lines.join("\n")}\nlease: 2m\ndispatch_deadline: 60s\nattempts: 3\n`);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.config;
}

/** The grant batches, dispatches and comment posts a replica can be killed right after. */
const KILL_POINTS = (method: string, url: string, body: string): boolean =>
  method === "POST" && ((/\/graphql$/.test(url) && body.includes("updateRefs")) || /\/dispatches$/.test(url) || /\/issues\/\d+\/comments$/.test(url));

export async function runChaos(o: ChaosOptions): Promise<ChaosResult> {
  const rand = seededRandom(mixSeed(o.seed, 7));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
  const clock = new ManualClock(Date.UTC(2026, 0, 1));
  const fake = await createFakeGitHub({ clock, seed: o.seed });
  try {
    fake.addRepo({ fullName: REPO });
    fake.addToken("t-bot", BOT, { permissions: { [REPO]: "write" } });
    fake.addToken("t-maintainer", "mona", { permissions: { [REPO]: "maintain" } });
    fake.addWorkflow(REPO, { path: `.github/workflows/${WORKFLOW}`, name: "bosun work", runName: "bosun #${{ inputs.item }} epoch ${{ inputs.epoch }}" });
    const config = chaosConfig(o.pools, o.poolSize);
    const maintainer = createTestOctokit(fake.url, "t-maintainer");
    const items: number[] = [];
    const poolOf = new Map<number, string>();
    for (let i = 0; i < o.items; i++) {
      const pool = `p${i % o.pools}`;
      const n = fake.addIssue(REPO, { title: `Work on item-${i}`, body: briefBody(`item-${i}`, `pool: ${pool}\npriority: ${i % 5}\nbudget: {wall_clock: 1m}\n`), user: "tia" }).number;
      items.push(n);
      poolOf.set(n, pool);
    }
    const observer = new ChaosObserver(fake, REPO, config.claims.ref_prefix, items, config.labels.done, BOT);
    // Every event GitHub would deliver to the App, in order, with its payload; lost or repeated below.
    let events: TappedEvent[] = [];
    fake.webhooks.tap((e) => {
      if (heardByApp(e)) events.push(e);
    });
    // The maintainer approves every item (each a labeled event by someone with the approval role).
    for (const n of items) await maintainer.issues.addLabels({ owner: "acme", repo: "app", issue_number: n, labels: [config.labels.ready] });
    addFaults(fake, o);

    const skews = Array.from({ length: o.replicas }, () => Math.round((rand() * 2 - 1) * o.skewMs));
    const replicas: Replica[] = [];
    let kills = 0;
    let reclaims = 0;
    const journal: Journal = {
      append: (event) => {
        if (event.event === "RECLAIM") reclaims++;
      },
    };
    const start = (i: number, generation: number): Replica => {
      const skewed: Clock = { now: () => clock.now() + (skews[i] ?? 0), sleep: (ms, signal) => clock.sleep(ms, signal) };
      const replica: Replica = { dead: false, backAt: 0, generation, ticker: undefined as unknown as RepoTicker };
      const killable: typeof fetch = async (input, init) => {
        if (replica.dead) throw new Error(`replica ${i} is dead`);
        const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
        const method = init?.method ?? "GET";
        const answer = await fetch(input, init);
        if (replica.dieAfter?.(method, url, typeof init?.body === "string" ? init.body : "") === true) {
          replica.dead = true;
          kills++;
          throw new Error(`replica ${i} died`);
        }
        return answer;
      };
      const octokit = new Octokit({ baseUrl: fake.url, auth: "t-bot", log: silent, request: { fetch: killable } });
      replica.ticker = new RepoTicker(octokit, { owner: "acme", repo: "app", botLogin: BOT, defaultBranch: "main", holder: `replica-${i}.${generation}`, clock: skewed, journal });
      return replica;
    };
    for (let i = 0; i < o.replicas; i++) replicas.push(start(i, 0));
    // Whatever the dice say, the first claim batch written (approvals and grants) kills the replica
    // that wrote it, before it posts or dispatches anything: every seed has a replica killed mid-tick.
    const firstBatch = (m: string, u: string, b: string): boolean => kills === 0 && /\/graphql$/.test(u) && b.includes("updateRefs") && m === "POST";
    for (const r of replicas) r.dieAfter = firstBatch;

    const hearing = { botLogin: BOT, config: async () => config };
    const details: string[] = [];
    let ticks = 0;
    let tickErrors = 0;
    let answered = 0;
    let mirrorLagAtIdle = 0;
    /** Items an idle tick left with lagging labels, and how many runs they had then (judged at the end). */
    const idleLags: Array<{ n: number; runs: number; at: number }> = [];
    const runsOf = (n: number): number => [...observer.runs.values()].filter((r) => r.item === n).length;
    let falseIdle = 0;
    let deliveries = 0;
    let dropped = 0;
    let redelivered = 0;
    const labelsOf = (n: number): readonly string[] => fake.repo(REPO).issues.get(n)?.labels ?? [];
    const finished = (n: number): boolean => labelsOf(n).includes(config.labels.needsHuman) || observer.doneAt.has(n);
    const fate = new Map<number, Fate>();
    /** Items the fleet still owes work on, from the fake alone: not done nor with a human, or a run of theirs still in progress. */
    const running = (): Set<number> => new Set([...observer.runs.values()].filter((r) => r.completed === undefined).map((r) => r.item));
    const owed = (): number[] => {
      const live = running();
      return items.filter((n) => live.has(n) || !finished(n));
    };

    const tick = async (replica: Replica, heard = false): Promise<TickReport | undefined> => {
      if (replica.dead) return undefined;
      ticks++;
      try {
        const report = await replica.ticker.tick(config, undefined, { heard });
        if (report.answered === true) answered++;
        if (report.view.idle) {
          observer.scan();
          const owedNow = owed();
          // An item whose run ended and whose claim record GitHub holds is final (with a human, or
          // ended) owes the fleet no work; only its labels may still say otherwise — a killed
          // writer's mirror, which another writer puts right once that writer's grace is over. That
          // record is Bosun's word: the item is held to it at the end — no run of it started after
          // this idle, or the idle was false after all.
          const lagging = owedNow.filter((n) => !running().has(n) && FINAL.has(observer.heads.get(n)?.at(-1)?.state ?? ""));
          mirrorLagAtIdle += lagging.length;
          for (const n of lagging) idleLags.push({ n, runs: runsOf(n), at: clock.now() });
          const left = owedNow.filter((n) => !lagging.includes(n));
          if (left.length > 0) {
            falseIdle++;
            details.push(`false idle at ${new Date(clock.now()).toISOString()}: #${left.slice(0, 5).join(", #")} owed`);
          }
        }
        return report;
      } catch (err) {
        tickErrors++;
        if (!replica.dead && tickErrors <= 3) details.push(`tick error: ${err instanceof Error ? err.message.split("\n")[0] : String(err)}`);
        return undefined;
      }
    };

    let nextSweep = clock.now();
    let step = 0;
    let idleAtEnd = false;
    for (; step < o.maxSteps; step++) {
      clock.advance(5_000 + Math.floor(rand() * 15_000));
      // Replicas: a dead one comes back as a fresh process (nothing remembered); a live one may be set to die.
      replicas.forEach((r, i) => {
        if (r.dead && step >= r.backAt) {
          if (r.backAt === 0) r.backAt = step + 2 + Math.floor(rand() * 4);
          else replicas[i] = start(i, r.generation + 1);
        } else if (!r.dead && rand() < o.kill) r.dieAfter = KILL_POINTS;
      });
      // Workers: a new run gets its fate; a due one ends (a webhook). A finished success opens its
      // pull request first, on the item's branch (a webhook too); a dead worker's run is failed by
      // GitHub once it notices the runner is gone.
      for (const run of [...observer.runs.values()]) {
        if (!fate.has(run.id)) {
          if (rand() < o.death) fate.set(run.id, { kind: "dead", failsAt: clock.now() + RUNNER_LOST_MS + Math.floor(rand() * RUNNER_LOST_MS) });
          else fate.set(run.id, { kind: "finishes", dueAt: clock.now() + 10_000 + Math.floor(rand() * 110_000), conclusion: rand() < o.failure ? (rand() < 0.3 ? "timed_out" : "failure") : "success", pull: rand() >= 0.1 });
        }
        const f = fate.get(run.id);
        if (f === undefined || !observer.inProgress(run.id)) continue;
        if (f.kind === "finishes" && f.dueAt <= clock.now()) {
          if (f.conclusion === "success" && f.pull && ![...fake.repo(REPO).pulls.values()].some((p) => p.headRef === `bosun/${run.item}-work`)) {
            const pull = fake.addPull(REPO, { head: `bosun/${run.item}-work`, title: `Work on #${run.item}`, body: `Closes #${run.item}`, user: "agent" });
            // Seeded pull requests announce nothing on their own: GitHub delivers the opening.
            announce(fake.state, fake.webhooks, fake.repo(REPO), fake.repo(REPO).issues.get(pull.number)!);
          }
          observer.complete(run.id, f.conclusion);
        } else if (f.kind === "dead" && f.failsAt <= clock.now()) {
          observer.complete(run.id, "failure");
        }
      }
      // A maintainer merges an item's pull request once Bosun shows it in review (GitHub closes the issue as completed).
      for (const n of items) {
        if (!labelsOf(n).includes(config.labels.review) || rand() < 0.5) continue;
        const pull = [...fake.repo(REPO).pulls.values()].find((p) => p.headRef === `bosun/${n}-work` && !p.merged);
        if (pull === undefined) continue;
        await maintainer.pulls.merge({ owner: "acme", repo: "app", pull_number: pull.number }).catch((err: unknown) => details.push(`merge of #${pull.number} refused: ${String(err)}`));
        observer.scan();
      }
      // Webhooks: each event reaches a random replica, unless lost; some come in storms of
      // redeliveries. A replica hears its deliveries in order, as the App does, and after each
      // sets off a heard tick when the App would — now, or folded into one after the next delivery.
      const heardBy = new Map<Replica, TappedEvent[]>();
      for (const e of events) {
        deliveries++;
        const roll = rand();
        if (roll < o.drop) {
          dropped++;
          continue;
        }
        const copies = roll < o.drop + o.storm ? 2 + Math.floor(rand() * 5) : 1;
        redelivered += copies - 1;
        for (let c = 0; c < copies; c++) {
          const replica = pick(replicas);
          heardBy.set(replica, [...(heardBy.get(replica) ?? []), e]);
        }
      }
      events = [];
      const folds = new Map([...heardBy.keys()].map((r) => [r, rand()] as const));
      const hearAll = async (replica: Replica, heard: readonly TappedEvent[]): Promise<void> => {
        let due = false;
        for (const e of heard) {
          if (replica.dead) return;
          due = (await hearDelivery(() => Promise.resolve(replica.ticker), e.event, e.payload as HeardPayload, hearing)) || due;
          // Folded: the deliveries of one moment go to one tick (the App's jittered wait).
          if (due && rand() >= (folds.get(replica) ?? 0)) {
            await tick(replica, true);
            due = false;
          }
        }
        if (due) await tick(replica, true);
      };
      const work: Array<Promise<unknown>> = [...heardBy].map(([replica, heard]) => hearAll(replica, heard));
      // The timed sweep recovers lost webhooks: one tick a minute on some replica.
      if (clock.now() >= nextSweep) {
        work.push(tick(pick(replicas)));
        nextSweep = clock.now() + 60_000;
      }
      await Promise.all(work);
      if (step % 50 === 0) o.log?.(`seed ${o.seed} step ${step}: ${owed().length} owed, ${ticks} ticks, ${observer.runs.size} runs, ${kills} kills`);
      if (owed().length === 0) {
        // Nothing left: the next tick that gets through (faults still fire) must say idle.
        for (let k = 0; k < 5; k++) {
          const live = replicas.find((r) => !r.dead);
          const report = live === undefined ? undefined : await tick(live);
          if (report === undefined) continue;
          idleAtEnd = report.view.idle;
          if (!idleAtEnd) details.push(`not idle at the end: ${JSON.stringify({ ...report.view, queue: report.view.queue.length })}`);
          break;
        }
        break;
      }
    }

    observer.scan();
    for (const lag of idleLags) {
      if (runsOf(lag.n) === lag.runs) continue;
      falseIdle++;
      details.push(`false idle at ${new Date(lag.at).toISOString()}: #${lag.n} owed (its record said it had ended; it ran again after)`);
    }
    const judged = observer.judge((n) => poolOf.get(n) ?? "?", o.poolSize);
    const lost = items.filter((n) => !finished(n));
    // With a human for want of a pull request, though its last run succeeded after opening one.
    const wrongHuman = items.filter((n) => {
      if (!labelsOf(n).includes(config.labels.needsHuman)) return false;
      const last = [...observer.runs.values()].filter((r) => r.item === n).sort((a, b) => a.id - b.id).at(-1);
      return last?.conclusion === "success" && [...fake.repo(REPO).pulls.values()].some((p) => p.headRef === `bosun/${n}-work`);
    });
    for (const n of wrongHuman.slice(0, 5)) details.push(`#${n} went to a human though its last run succeeded with a pull request open`);
    for (const n of lost.slice(0, 5)) details.push(`lost #${n}: labels [${labelsOf(n).join(", ")}]`);
    const fired = (kind: string): number => fake.faults.fired.filter((f) => f.kind === kind).length;
    return {
      landed: items.length - lost.length,
      done: items.filter((n) => observer.doneAt.has(n)).length,
      lost: lost.length,
      wrongHuman: wrongHuman.length,
      doubleDispatch: judged.doubleDispatch,
      epochsBack: judged.epochsBack,
      falseDone: judged.falseDone,
      falseIdle,
      idleAtEnd,
      commentsTwice: judged.commentsTwice,
      poolOverfill: judged.poolOverfill,
      maxPoolLive: judged.maxPoolLive,
      foreignRuns: judged.foreignRuns,
      kills,
      ticks,
      answered,
      mirrorLagAtIdle,
      tickErrors,
      deliveries,
      dropped,
      redelivered,
      faultsFired: fake.faults.fired.length,
      staleReads: fired("stale-read"),
      appliedErrors: fake.accounting.log.filter((e) => e.fault === "error" && e.method !== "GET").length,
      runs: observer.runs.size,
      deadWorkers: [...fate.values()].filter((f) => f.kind === "dead").length,
      reclaims,
      steps: step,
      requests: fake.accounting.log.length,
      details: [...details, ...judged.details.slice(0, 10)],
    };
  } finally {
    await fake.close();
  }
}

/** Claim record states after which the fleet owes an item no work. */
const FINAL: ReadonlySet<string> = new Set(["settled", "withdrawn", "invalid"]);

/** The deliveries the App subscribes its scheduler to (`HEARD_ISSUE_EVENTS`, `HEARD_WORK_EVENTS`). */
const HEARD: ReadonlySet<string> = new Set<string>([...HEARD_ISSUE_EVENTS, ...HEARD_WORK_EVENTS]);
const heardByApp = (e: TappedEvent): boolean => HEARD.has(e.event) || (e.action !== undefined && HEARD.has(`${e.event}.${e.action}`));

/** Reads a lagging replica of GitHub may serve: the listings and single reads the tick makes. */
const LAGGING_READS = /^GET \/repos\/\{owner\}\/\{repo\}\/(issues$|issues\/events$|issues\/\{issue_number\}$|issues\/\{issue_number\}\/(comments|events)$|actions\/runs$|pulls$)/;

/**
 * Seeded faults from the fake's PRNG: 422s and 5xx on claim batches (GraphQL `updateRefs`) that
 * may have applied; label writes, comments and dispatches that applied and answered 502; 5xx on
 * reads; reads from a replica of GitHub that lags behind.
 */
function addFaults(fake: FakeGitHub, o: ChaosOptions): void {
  const rate = o.faultRate;
  const batches = /^POST \/graphql$/;
  fake.faults.add({ kind: "spurious-422", route: batches, probability: rate, applied: 0.5 });
  fake.faults.add({ kind: "error", status: 502, route: batches, probability: rate / 2, applied: 0.5 });
  fake.faults.add({ kind: "error", status: 502, route: /^(POST|PUT|DELETE) \/repos\/\{owner\}\/\{repo\}\/issues\/\{issue_number\}\/(labels|comments)/, probability: rate / 2, applied: true });
  fake.faults.add({ kind: "error", status: 502, route: /\/dispatches$/, probability: rate, applied: true });
  fake.faults.add({ kind: "error", status: 503, route: LAGGING_READS, probability: rate / 3 });
  // However the dice fall, every seed sees one dispatch that started its run and answered 502.
  fake.faults.add({ kind: "error", status: 502, route: /\/dispatches$/, times: 1, applied: true });
  if (o.staleRate > 0) {
    fake.faults.add({ kind: "stale-read", lagMs: o.lagMs, route: LAGGING_READS, probability: o.staleRate });
    fake.faults.add({ kind: "stale-read", lagMs: o.lagMs, route: LAGGING_READS, times: 1 });
  }
}
