/**
 * `npm run bench -- chaos`: the scheduler on the fake GitHub under chaos, for many seeds (issue 5).
 * Env: CHAOS_SEEDS (default 5), CHAOS_ITEMS (default 200: one seed of 500 items takes ~3 min on
 * 2 cores, so 5 × 500 is CHAOS_ITEMS=500), CHAOS_REPLICAS (8), CHAOS_MAX_STEPS (6000), CHAOS_OUTAGE
 * (0.01: chance per step that every replica is down longer than a lease), CHAOS_COALESCE (1; 0 lets
 * a replica run overlapping ticks, as a Probot server handling deliveries concurrently would).
 * Judged from the fake's request log and the claim chains: double and unfenced dispatch, lost
 * items, false idle reports, and pool overfill (more live claims in a pool than its size).
 * Prints one line per seed, then the sums as JSON on the last line. Measures; never fails a build.
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
};
console.error(`chaos: ${seeds} seeds, ${JSON.stringify(options)}`);

const started = performance.now();
const sum = { double_dispatch: 0, lost: 0, false_idle: 0, ticks: 0, tick_errors: 0, faults_fired: 0, unfinished: 0, unfenced_dispatch: 0, orphan_claims: 0, discarded_successes: 0, reclaims: 0, dead_workers: 0, pool_overfill: 0 };
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
    unfenced_dispatch: r.unfencedDispatch,
    false_idle: r.falseIdle,
    ticks: r.ticks,
    busy: r.busyTicks,
    tick_errors: r.tickErrors,
    faults: r.faultsFired,
    runs: r.runs,
    dead_workers: r.deadWorkers,
    reclaims: r.reclaims,
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
  sum.dead_workers += r.deadWorkers;
  sum.pool_overfill += r.poolOverfill;
  maxPoolLive = Math.max(maxPoolLive, r.maxPoolLive);
  longestOrphanMs = Math.max(longestOrphanMs, r.longestOrphanMs);
}
const seconds = Number(((performance.now() - started) / 1000).toFixed(1));
console.log(JSON.stringify({ seeds, replicas: options.replicas, items: options.items, ...sum, longest_orphan_s: Math.round(longestOrphanMs / 1000), max_pool_live: maxPoolLive, pool_size: options.poolSize, seconds }));
