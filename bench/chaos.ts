/**
 * `npm run bench -- chaos`: replicas of the scheduler (`RepoTicker`) on the fake GitHub under
 * chaos, for many seeds — replicas killed mid-tick right after a write GitHub applied, webhooks
 * lost or redelivered in storms (each heard as the App hears it), workers dying, writes that applied and answered 5xx, spurious
 * 422s, lagging reads (test/integration/scheduler/run-chaos.ts).
 * Env: CHAOS_SEEDS (5), CHAOS_ITEMS (30), CHAOS_REPLICAS (4), CHAOS_POOL (3, per pool; 2 pools),
 * CHAOS_MAX_STEPS (1500), CHAOS_KILL (0.05: chance per step that a live replica dies after its
 * next write), CHAOS_DROP (0.2), CHAOS_STORM (0.2), CHAOS_STALE (0.05), CHAOS_FAULTS (0.03).
 * Judged from GitHub's side (the fake's runs, claim ref heads, labels, comments, merged pull
 * requests), never from a replica's claim state: `double_dispatch` (a run dispatched while another
 * of the item was in progress, twice at one epoch, or after the item was done), `lost` (an item
 * neither done nor with a human when the seed stopped), `wrong_human` (with a human though its last run
 * succeeded with its pull request open), `epochs_back`, `false_idle`, `false_done`,
 * `comments_twice` (not exactly one snapshot per approval), `pool_overfill`; `answered`: heard ticks
 * that stopped at the claims, their asks answered; `mirror_lag_at_idle`: items an idle tick
 * left whose labels still lagged a final claim record (no run in progress; not a false idle). Prints one line per
 * seed, then the sums as JSON on the last line. Measures; never fails a build.
 */
import { CHAOS_DEFAULTS, runChaos } from "../test/integration/scheduler/run-chaos.js";

const num = (name: string, fallback: number): number => {
  const raw = process.env[name];
  const value = raw === undefined || raw === "" ? Number.NaN : Number(raw);
  return Number.isFinite(value) ? value : fallback;
};

const seeds = num("CHAOS_SEEDS", 5);
const options = {
  ...CHAOS_DEFAULTS,
  items: num("CHAOS_ITEMS", 30),
  replicas: num("CHAOS_REPLICAS", 4),
  poolSize: num("CHAOS_POOL", 3),
  maxSteps: num("CHAOS_MAX_STEPS", 1500),
  kill: num("CHAOS_KILL", CHAOS_DEFAULTS.kill),
  drop: num("CHAOS_DROP", CHAOS_DEFAULTS.drop),
  storm: num("CHAOS_STORM", CHAOS_DEFAULTS.storm),
  staleRate: num("CHAOS_STALE", CHAOS_DEFAULTS.staleRate),
  faultRate: num("CHAOS_FAULTS", CHAOS_DEFAULTS.faultRate),
};
console.error(`chaos: ${seeds} seeds, ${JSON.stringify(options)}`);

const started = performance.now();
const sum = { double_dispatch: 0, lost: 0, wrong_human: 0, epochs_back: 0, false_idle: 0, false_done: 0, comments_twice: 0, pool_overfill: 0, foreign_runs: 0, not_idle_at_end: 0, landed: 0, done: 0, kills: 0, ticks: 0, answered: 0, mirror_lag_at_idle: 0, tick_errors: 0, deliveries: 0, dropped: 0, redelivered: 0, faults_fired: 0, stale_reads: 0, applied_errors: 0, runs: 0, dead_workers: 0, reclaims: 0, requests: 0 };
let maxPoolLive = 0;
for (let seed = 1; seed <= seeds; seed++) {
  const t0 = performance.now();
  const r = await runChaos({ ...options, seed, log: (line) => console.error(line) });
  const row = {
    seed,
    steps: r.steps,
    landed: r.landed,
    done: r.done,
    lost: r.lost,
    wrong_human: r.wrongHuman,
    double_dispatch: r.doubleDispatch,
    epochs_back: r.epochsBack,
    false_idle: r.falseIdle,
    false_done: r.falseDone,
    comments_twice: r.commentsTwice,
    pool_overfill: r.poolOverfill,
    max_pool_live: r.maxPoolLive,
    idle_at_end: r.idleAtEnd,
    kills: r.kills,
    ticks: r.ticks,
    answered: r.answered,
    mirror_lag_at_idle: r.mirrorLagAtIdle,
    tick_errors: r.tickErrors,
    dropped: r.dropped,
    redelivered: r.redelivered,
    faults: r.faultsFired,
    runs: r.runs,
    dead_workers: r.deadWorkers,
    reclaims: r.reclaims,
    requests: r.requests,
    s: Number(((performance.now() - t0) / 1000).toFixed(1)),
  };
  console.log(JSON.stringify(row));
  for (const d of r.details) console.log(`  ${d}`);
  sum.double_dispatch += r.doubleDispatch;
  sum.lost += r.lost;
  sum.wrong_human += r.wrongHuman;
  sum.epochs_back += r.epochsBack;
  sum.false_idle += r.falseIdle;
  sum.false_done += r.falseDone;
  sum.comments_twice += r.commentsTwice;
  sum.pool_overfill += r.poolOverfill;
  sum.foreign_runs += r.foreignRuns;
  sum.not_idle_at_end += r.idleAtEnd ? 0 : 1;
  sum.landed += r.landed;
  sum.done += r.done;
  sum.kills += r.kills;
  sum.ticks += r.ticks;
  sum.answered += r.answered;
  sum.mirror_lag_at_idle += r.mirrorLagAtIdle;
  sum.tick_errors += r.tickErrors;
  sum.deliveries += r.deliveries;
  sum.dropped += r.dropped;
  sum.redelivered += r.redelivered;
  sum.faults_fired += r.faultsFired;
  sum.stale_reads += r.staleReads;
  sum.applied_errors += r.appliedErrors;
  sum.runs += r.runs;
  sum.dead_workers += r.deadWorkers;
  sum.reclaims += r.reclaims;
  sum.requests += r.requests;
  maxPoolLive = Math.max(maxPoolLive, r.maxPoolLive);
}
const seconds = Number(((performance.now() - started) / 1000).toFixed(1));
console.log(JSON.stringify({ seeds, replicas: options.replicas, items: options.items, ...sum, max_pool_live: maxPoolLive, pool_size: options.poolSize, seconds }));
