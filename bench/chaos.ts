/**
 * `npm run bench -- chaos`: the scheduler on the fake GitHub under chaos, for many seeds (issue 5).
 * Env: CHAOS_SEEDS (default 5), CHAOS_ITEMS (default 200: one seed of 500 items takes minutes on
 * 2 cores, so 5 × 500 is CHAOS_ITEMS=500), CHAOS_REPLICAS (8), CHAOS_MAX_STEPS (6000), CHAOS_OUTAGE
 * (0.01: chance per step that every replica is down longer than a lease), CHAOS_COALESCE (1; 0 lets
 * a replica run overlapping ticks, as a Probot server handling deliveries concurrently would),
 * CHAOS_SKEW_MS (5000: each replica's clock is off by up to this), CHAOS_STALE (0.05: chance a read
 * lags), CHAOS_LAG_MS (30000: how far behind), CHAOS_PAGE_SHIFT (0.05).
 * Judged from GitHub's side (the fake's runs, label writes and ref heads, and the simulation's
 * record of which workers live), never from the replicas' claim state: double dispatch (a run
 * dispatched while another of the item was in progress, or after it landed done), two live
 * workers, pool overfill (runs in progress past a pool's size), lost items, false idle reports and
 * false done labels; from the claim chains on the fake: unfenced dispatch, orphan claims.
 * Prints one line per seed, then the sums as JSON on the last line. Measures; never fails a build.
 * Every figure it prints is asserted by `test/integration/scheduler/chaos.test.ts` on a small run.
 */
import { CHAOS_DEFAULTS, runChaos } from "../test/integration/scheduler/chaos-simulation.js";

const num = (name: string, fallback: number): number => {
  const raw = process.env[name];
  const value = raw === undefined || raw === "" ? Number.NaN : Number(raw);
  return Number.isFinite(value) ? value : fallback;
};

const seeds = num("CHAOS_SEEDS", 5);
const options = {
  ...CHAOS_DEFAULTS,
  items: num("CHAOS_ITEMS", CHAOS_DEFAULTS.items),
  replicas: num("CHAOS_REPLICAS", CHAOS_DEFAULTS.replicas),
  maxSteps: num("CHAOS_MAX_STEPS", CHAOS_DEFAULTS.maxSteps),
  outage: num("CHAOS_OUTAGE", CHAOS_DEFAULTS.outage),
  coalesce: num("CHAOS_COALESCE", 1) !== 0,
  skewMs: num("CHAOS_SKEW_MS", CHAOS_DEFAULTS.skewMs ?? 0),
  staleRate: num("CHAOS_STALE", CHAOS_DEFAULTS.staleRate ?? 0),
  lagMs: num("CHAOS_LAG_MS", CHAOS_DEFAULTS.lagMs ?? 0),
  pageShiftRate: num("CHAOS_PAGE_SHIFT", CHAOS_DEFAULTS.pageShiftRate ?? 0),
};
console.error(`chaos: ${seeds} seeds, ${JSON.stringify(options)}`);

const started = performance.now();
const sum = { double_dispatch: 0, two_live_workers: 0, lost: 0, false_idle: 0, false_done: 0, ticks: 0, tick_errors: 0, faults_fired: 0, stale_reads: 0, page_shifts: 0, applied_errors: 0, unfinished: 0, unfenced_dispatch: 0, orphan_claims: 0, discarded_successes: 0, reclaims: 0, revived: 0, dead_workers: 0, pool_overfill: 0 };
let maxPoolLive = 0;
let longestOrphanMs = 0;
for (let seed = 1; seed <= seeds; seed++) {
  const t0 = performance.now();
  const r = await runChaos({ ...options, seed, log: (line) => console.error(line) });
  const row = {
    seed,
    steps: r.steps,
    landed: r.landed,
    unfinished: r.unfinished,
    lost: r.lost,
    double_dispatch: r.doubleDispatch,
    two_live_workers: r.twoLiveWorkers,
    unfenced_dispatch: r.unfencedDispatch,
    false_idle: r.falseIdle,
    false_done: r.falseDone,
    ticks: r.ticks,
    busy: r.busyTicks,
    tick_errors: r.tickErrors,
    faults: r.faultsFired,
    stale_reads: r.staleReads,
    page_shifts: r.pageShifts,
    applied_errors: r.appliedErrors,
    runs: r.runs,
    dead_workers: r.deadWorkers,
    reclaims: r.reclaims,
    revived: r.revived,
    orphan_claims: r.orphanClaims,
    longest_orphan_s: Math.round(r.longestOrphanMs / 1000),
    discarded_successes: r.discardedSuccesses,
    pool_overfill: r.poolOverfill,
    max_pool_live: r.maxPoolLive,
    requests: r.requests,
    s: Number(((performance.now() - t0) / 1000).toFixed(1)),
  };
  console.log(JSON.stringify(row));
  for (const d of r.details) console.log(`  ${d}`);
  sum.double_dispatch += r.doubleDispatch;
  sum.two_live_workers += r.twoLiveWorkers;
  sum.false_done += r.falseDone;
  sum.stale_reads += r.staleReads;
  sum.page_shifts += r.pageShifts;
  sum.applied_errors += r.appliedErrors;
  sum.lost += r.lost;
  sum.false_idle += r.falseIdle;
  sum.ticks += r.ticks;
  sum.tick_errors += r.tickErrors;
  sum.faults_fired += r.faultsFired;
  sum.unfinished += r.unfinished;
  sum.unfenced_dispatch += r.unfencedDispatch;
  sum.orphan_claims += r.orphanClaims;
  sum.discarded_successes += r.discardedSuccesses;
  sum.reclaims += r.reclaims;
  sum.revived += r.revived;
  sum.dead_workers += r.deadWorkers;
  sum.pool_overfill += r.poolOverfill;
  maxPoolLive = Math.max(maxPoolLive, r.maxPoolLive);
  longestOrphanMs = Math.max(longestOrphanMs, r.longestOrphanMs);
}
const seconds = Number(((performance.now() - started) / 1000).toFixed(1));
console.log(JSON.stringify({ seeds, replicas: options.replicas, items: options.items, ...sum, longest_orphan_s: Math.round(longestOrphanMs / 1000), max_pool_live: maxPoolLive, pool_size: options.poolSize, seconds }));
