// What money costs a decision. The bar (issue 26): reserving and releasing for 100,000 items costs
// under 5% of the engine's time per decision (bench/engine.ts's set-up: 100,000 items, pool 64).
// Three caps throughout: a fleet day, a fleet week and a pool day; every item fits.
//
// - reserve_release_ns_per_item (the bar's figure): reserving and releasing one item on the
//   production code: the step checks the reservation against the caps' rooms (capExceeded); the
//   in-memory ledger mints a ticket, checks every cap again, writes the reservation and answers
//   with the rooms (MemorySpendLedger.reserveNow over SpendBook); at the landing it settles the
//   reported cost, or keeps the reservation, and answers with the rooms (settleNow).
// - money_arithmetic_ns_per_item: that, plus choosing what to reserve (reservationFor, the p90 of
//   the item's class) and learning each reported cost for the class's p90 (ClassCosts).
// - purse_ns_per_item: reserving and settling through the ports the engine awaits (EnginePurse
//   over the ledger's promises): the arithmetic plus four promise hops per item.
// - engine_ns_per_decision: the engine over the 100,000 items without money, and
//   engine_money_overhead: the engine under the caps against it, all that money adds to a drain's
//   decisions, garbage included. The difference of two noisy figures: read it over several runs.
// - file_ledger_ms_per_reserve_settle: the local drain's shared file ledger, a locked read, write,
//   flush and rename per change: bounded by the disk, not the arithmetic; paid once per run.
//
// Passes alternate and each figure is the least CPU time of its passes: the machine is shared, and
// the least is the pass the others disturbed least. Last line: one JSON object of the figures.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Engine } from "../src/core/engine/engine.js";
import type { EngineBudget, EngineOptions } from "../src/core/engine/engine-options.js";
import type { EngineLoop, RunResult } from "../src/core/engine/engine-loop.js";
import { ENGINE_DEFAULTS } from "../src/core/engine/engine-options.js";
import type { WorkItem } from "../src/core/engine/work-item.js";
import type { Journal } from "../src/core/journal/journal-event.js";
import { done } from "../src/core/stop/stop.js";
import { ManualClock } from "../src/adapters/memory/manual-clock.js";
import { MemoryClaimStore } from "../src/adapters/memory/memory-claim-store.js";
import { MemorySpendLedger } from "../src/adapters/memory/memory-spend-ledger.js";
import { EnginePurse } from "../src/core/engine/engine-purse.js";
import { FileSpendLedger } from "../src/adapters/local/file-spend-ledger.js";
import type { BudgetCap } from "../src/core/budget/budget-cap.js";
import { toMicros } from "../src/core/budget/budget-cap.js";
import { capExceeded } from "../src/core/budget/cap-room.js";
import { ClassCosts } from "../src/core/budget/class-costs.js";
import { reservationFor } from "../src/core/budget/reservation-for.js";
import { taskClassOf } from "../src/core/metrics/task-class.js";
import type { Band } from "../src/core/brief/brief.js";

const items = Number(process.env["BENCH_ITEMS"] ?? 100_000);
const pool = Number(process.env["BENCH_POOL"] ?? 64);
const passes = Number(process.env["BENCH_PASSES"] ?? 5);
const fileChanges = Number(process.env["BENCH_FILE_CHANGES"] ?? 400);

// A fleet day, a fleet week and a pool day cap, none of which the run reaches: every item is priced,
// checked and reserved, and none is held (holding would dispatch less and look cheaper).
const caps: BudgetCap[] = [
  { name: "fleet-day", window: "day", micros: 1e12 },
  { name: "fleet-week", window: "week", micros: 1e13 },
  { name: "pool-day", window: "day", micros: 1e12, pool: "local" },
];
// Half the items name their own budget.usd; the others reserve the per-item cap (--item-usd).
const queue: WorkItem<null>[] = Array.from({ length: items }, (_, i) => ({
  id: `item-${i}`,
  band: (i % 5) as Band,
  createdAt: (i * 7919) % 1e9,
  unblocks: 0,
  pool: "default",
  claimKey: `task:item-${i}`,
  blockedBy: [],
  payload: null,
  ...(i % 2 === 0 ? { usd: 2_000_000 } : {}),
}));
// What the runs report: four in five a cost, the fifth nothing (it keeps its reservation). Made
// outside the timer, as a worker's result is made outside the engine.
const results: RunResult[] = Array.from({ length: items }, (_, i) => (i % 5 === 0 ? { stop: done() } : { stop: done(), cost: { wall_clock_s: 1, usd: (i % 97) / 100 } }));

const ids = queue.map((q) => q.id);
const keys = queue.map((q) => q.claimKey);
const micros = queue.map((q) => q.usd ?? 500_000);


const ITEM_CAP = 500_000;
const none: number[] = caps.map(() => 0);
const reported = results.map((r) => (r.cost?.usd === undefined ? undefined : toMicros(r.cost.usd)));

/** CPU milliseconds of reserving and releasing every item, one after another (the bar's figure). */
function reserveReleasePass(): number {
  const ledger = new MemorySpendLedger(caps);
  const now = new ManualClock().now();
  let rooms = ledger.book.rooms(caps, now);
  const started = process.cpuUsage();
  for (let i = 0; i < items; i++) {
    const reserve = micros[i] as number;
    if (capExceeded(rooms, "local", reserve, none) !== undefined) throw new Error("an item did not fit");
    const r = ledger.reserveNow({ item: ids[i] as string, pool: "local", micros: reserve }, now);
    if (!r.ok) throw new Error("a reservation did not fit");
    rooms = ledger.settleNow(r.ticket, reported[i], now);
  }
  const cpu = process.cpuUsage(started);
  if (ledger.book.reservations().length !== 0 || (rooms[0]?.used ?? 0) === 0) throw new Error("the book did not add up");
  return (cpu.user + cpu.system) / 1000;
}

/** CPU milliseconds of every item's money arithmetic: choosing its figure, reserving, releasing, learning its cost. */
function arithmeticPass(): number {
  const ledger = new MemorySpendLedger(caps);
  const costs = new ClassCosts();
  const now = new ManualClock().now();
  let rooms = ledger.book.rooms(caps, now);
  const started = process.cpuUsage();
  for (let i = 0; i < items; i++) {
    const item = queue[i] as WorkItem<null>;
    const taskClass = taskClassOf({ claim_key: item.claimKey });
    const priced = reservationFor({ brief: item.usd, itemCap: ITEM_CAP, p90: costs.p90(taskClass), taskClass });
    if (!priced.ok || capExceeded(rooms, "local", priced.micros, none) !== undefined) throw new Error("an item did not fit");
    const r = ledger.reserveNow({ item: item.id, pool: "local", micros: priced.micros }, now);
    if (!r.ok) throw new Error("a reservation did not fit");
    const cost = reported[i];
    if (cost !== undefined) costs.observe(item.claimKey, cost);
    rooms = ledger.settleNow(r.ticket, cost, now);
  }
  const cpu = process.cpuUsage(started);
  if (ledger.book.reservations().length !== 0 || (rooms[0]?.used ?? 0) === 0) throw new Error("the book did not add up");
  return (cpu.user + cpu.system) / 1000;
}

/** CPU milliseconds of reserving and settling every item through the engine's purse, one after another. */
async function pursePass(): Promise<number> {
  const clock = new ManualClock();
  const ledger = new MemorySpendLedger(caps);
  const purse = new EnginePurse({ ledger, itemCap: ITEM_CAP }, clock, () => {});
  const now = clock.now();
  const started = process.cpuUsage();
  for (let i = 0; i < items; i++) {
    const reserved = await purse.reserve(ids[i] as string, "local", micros[i] as number, now);
    if (reserved?.kind !== "ticket") throw new Error("a reservation did not fit");
    await purse.settle(keys[i] as string, reserved.ticket, results[i] as RunResult);
  }
  const cpu = process.cpuUsage(started);
  if (ledger.book.reservations().length !== 0 || ((await ledger.rooms(now))[0]?.used ?? 0) === 0) throw new Error("the book did not add up");
  return (cpu.user + cpu.system) / 1000;
}

/** CPU milliseconds of one engine run over the queue, with or without money. */
async function enginePass(money: boolean): Promise<number> {
  const journal: Journal = { append: () => {} };
  let n = 0;
  const loop: EngineLoop<null> = { name: "bench", selectQueue: async () => queue, tierPolicy: () => "standard", dispatch: async () => results[n++ % items] as RunResult, land: async () => {}, onIdle: () => {} };
  const ledger = new MemorySpendLedger(caps);
  const budget: EngineBudget = { ledger, itemCap: 500_000 };
  const options: EngineOptions = { ...ENGINE_DEFAULTS, holder: "bench", pool, ...(money ? { budget } : {}) };
  const started = process.cpuUsage();
  const summary = await new Engine(loop, new MemoryClaimStore(), new ManualClock(), journal, options).run();
  const cpu = process.cpuUsage(started);
  if (summary.items.size !== items || n !== items) throw new Error(`lost work: ${n} dispatched, ${summary.items.size} landed of ${items}`);
  if (money && (await ledger.rooms(0)).length !== caps.length) throw new Error("no rooms");
  if (money && ledger.book.reservations().length !== 0) throw new Error("reservations left in flight");
  return (cpu.user + cpu.system) / 1000;
}

/** Wall milliseconds per reserve-and-settle on the file ledger a local drain shares. */
async function filePass(): Promise<number> {
  const stateDir = await mkdtemp(join(tmpdir(), "bosun-bench-budget-"));
  try {
    const ledger = new FileSpendLedger({ stateDir, caps: caps.map((c) => ({ ...c })), holder: "bench" });
    const now = Date.UTC(2026, 11, 3, 9);
    const started = performance.now();
    for (let i = 0; i < fileChanges; i++) {
      const r = await ledger.reserve({ item: `item-${i}`, pool: "local", micros: 2_000_000 }, now + i);
      if (!r.ok) throw new Error("a reservation did not fit");
      await ledger.settle(r.ticket, (i % 97) * 10_000, now + i);
    }
    return (performance.now() - started) / fileChanges;
  } finally {
    await rm(stateDir, { recursive: true, force: true });
  }
}

const plain: number[] = [];
const money: number[] = [];
const arithmetic: number[] = [];
const viaPurse: number[] = [];
const engineMoney: number[] = [];
for (let p = 0; p < passes; p++) {
  plain.push(await enginePass(false));
  money.push(reserveReleasePass());
  arithmetic.push(arithmeticPass());
  viaPurse.push(await pursePass());
  engineMoney.push(await enginePass(true));
}
const best = (xs: number[]): number => Math.min(...xs);
const ns = (ms: number): number => (ms * 1e6) / items;
const perDecision = ns(best(plain));
const perItem = ns(best(money));
const purseItem = ns(best(viaPurse));
const arithmeticItem = ns(best(arithmetic));
const withMoney = ns(best(engineMoney));
const fileMs = await filePass();
const list = (xs: number[]): string => xs.map(Math.round).join(" ");
console.error(`${items} items, pool ${pool}, CPU ms per pass: engine ${list(plain)}; reserve+release ${list(money)}; all money arithmetic ${list(arithmetic)}; through the purse ${list(viaPurse)}; engine under caps ${list(engineMoney)}`);
console.error(`file ledger: ${fileMs.toFixed(2)} ms per reserve+settle (${fileChanges} runs, one after another)`);
console.log(
  JSON.stringify({
    items,
    pool,
    passes,
    reserve_release_ns_per_item: Math.round(perItem),
    engine_ns_per_decision: Math.round(perDecision),
    share_of_decision: Number((perItem / perDecision).toFixed(4)),
    money_arithmetic_ns_per_item: Math.round(arithmeticItem),
    money_arithmetic_share: Number((arithmeticItem / perDecision).toFixed(4)),
    purse_ns_per_item: Math.round(purseItem),
    purse_share_of_decision: Number((purseItem / perDecision).toFixed(4)),
    engine_with_money_ns_per_decision: Math.round(withMoney),
    engine_money_overhead: Number(((withMoney - perDecision) / perDecision).toFixed(4)),
    file_ledger_ms_per_reserve_settle: Number(fileMs.toFixed(3)),
  }),
);
