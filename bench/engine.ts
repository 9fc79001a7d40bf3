// The engine alone: memory claims, a stand-in dispatcher that lands at once, N briefs, pool P.
// Prints {items, pool, cycles_per_s, peak_rss_mb, ...} as its last line.
import { Engine } from "../src/core/engine/engine.js";
import type { EngineLoop } from "../src/core/engine/engine-loop.js";
import { ENGINE_DEFAULTS } from "../src/core/engine/engine-options.js";
import type { WorkItem } from "../src/core/engine/work-item.js";
import type { Journal } from "../src/core/journal/journal-event.js";
import { policyByName } from "../src/core/queue/queue-policy.js";
import { done } from "../src/core/stop/stop.js";
import { ManualClock } from "../src/adapters/memory/manual-clock.js";
import { MemoryClaimStore } from "../src/adapters/memory/memory-claim-store.js";
import type { Band } from "../src/core/brief/brief.js";

const items = Number(process.env["BENCH_ITEMS"] ?? 100_000);
const pool = Number(process.env["BENCH_POOL"] ?? 64);
const policyName = process.env["BENCH_POLICY"] ?? "hybrid";
const policy = policyByName(policyName);
if (policy === undefined) throw new Error(`unknown policy ${policyName}`);

let seed = 42;
const random = (): number => {
  // mulberry32: the same queue every run.
  seed = (seed + 0x6d2b79f5) | 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

const queue: WorkItem<null>[] = Array.from({ length: items }, (_, i) => ({
  id: `item-${i}`,
  band: Math.floor(random() * 5) as Band,
  createdAt: Math.floor(random() * 1e9),
  ...(random() < 0.2 ? { due: Math.floor(random() * 2e9) } : {}),
  unblocks: 0,
  pool: "default",
  claimKey: `task:item-${i}`,
  blockedBy: [],
  payload: null,
}));

let events = 0;
const journal: Journal = { append: () => void events++ };
let dispatched = 0;
const loop: EngineLoop<null> = {
  name: "bench",
  selectQueue: async () => queue,
  tierPolicy: () => "standard",
  dispatch: async () => {
    dispatched++;
    return { stop: done() };
  },
  land: async () => {},
  onIdle: () => {},
};

let peakRss = process.memoryUsage().rss;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 20);
const rssBefore = process.memoryUsage().rss;
const cpuBefore = process.cpuUsage();
const started = performance.now();
const engine = new Engine(loop, new MemoryClaimStore(), new ManualClock(), journal, { ...ENGINE_DEFAULTS, holder: "bench", pool, policy });
const summary = await engine.run();
const seconds = (performance.now() - started) / 1000;
const cpu = process.cpuUsage(cpuBefore);
const cpuSeconds = (cpu.user + cpu.system) / 1e6;
clearInterval(sampler);
peakRss = Math.max(peakRss, process.memoryUsage().rss);
if (dispatched !== items || summary.items.size !== items) throw new Error(`lost work: dispatched ${dispatched}, landed ${summary.items.size} of ${items}`);
console.error(`${items} items, pool ${pool}, ${policyName}: ${seconds.toFixed(2)} s, ${events} journal events`);
console.log(
  JSON.stringify({
    items,
    pool,
    policy: policyName,
    cycles_per_s: Math.round(items / seconds),
    // CPU time is steadier than wall time on a shared machine: compare both.
    cycles_per_cpu_s: Math.round(items / cpuSeconds),
    seconds: Number(seconds.toFixed(3)),
    peak_rss_mb: Math.round(peakRss / 1048576),
    rss_growth_mb: Math.round((peakRss - rssBefore) / 1048576),
  }),
);
