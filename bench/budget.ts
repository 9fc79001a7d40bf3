// Reserving and releasing money for 100,000 items (the spend book the step's caps are read from,
// in memory), beside the engine's own time per decision over as many items (bench/engine.ts's
// set-up). Prints {items, reserve_release_ns_per_item, engine_ns_per_decision, share_of_decision}
// as its last line: the bar is a share under 0.05.
import { Engine } from "../src/core/engine/engine.js";
import type { EngineLoop } from "../src/core/engine/engine-loop.js";
import { ENGINE_DEFAULTS } from "../src/core/engine/engine-options.js";
import type { WorkItem } from "../src/core/engine/work-item.js";
import type { Journal } from "../src/core/journal/journal-event.js";
import { done } from "../src/core/stop/stop.js";
import { ManualClock } from "../src/adapters/memory/manual-clock.js";
import { MemoryClaimStore } from "../src/adapters/memory/memory-claim-store.js";
import { SpendBook } from "../src/core/budget/spend-book.js";
import type { BudgetCap } from "../src/core/budget/budget-cap.js";
import type { Band } from "../src/core/brief/brief.js";

const items = Number(process.env["BENCH_ITEMS"] ?? 100_000);
const pool = Number(process.env["BENCH_POOL"] ?? 64);
const M = 1_000_000;

// The money side: every item reserves under a fleet day, fleet week and pool day cap, then settles
// with what it "reported" (one in five reports nothing and keeps its reservation).
const caps: BudgetCap[] = [
  { name: "fleet-day", window: "day", micros: 1e12 },
  { name: "fleet-week", window: "week", micros: 1e13 },
  { name: "pool-day", window: "day", micros: 1e12, pool: "default" },
];
// Item ids and tickets exist before a reservation (the engine has them already): made outside the timer.
const ids = Array.from({ length: items }, (_, i) => `item-${i}`);
const tickets = ids.map((id) => `bench:${id}:1`);
function moneyPass(): number {
  const book = new SpendBook();
  const at = Date.UTC(2026, 11, 3, 9);
  const started = performance.now();
  for (let i = 0; i < items; i++) {
    const ticket = tickets[i] as string;
    if (book.reserveWithin(caps, { ticket, item: ids[i] as string, pool: "default", at: at + i, micros: 2 * M }) !== undefined) throw new Error("a reservation did not fit");
    book.settle(ticket, i % 5 === 0 ? undefined : (i % 97) * 10_000);
  }
  const ms = performance.now() - started;
  if (book.rooms(caps, at)[0]?.used === 0) throw new Error("nothing was spent");
  return ms;
}

// The engine side: bench/engine.ts's run, without money.
const queue: WorkItem<null>[] = Array.from({ length: items }, (_, i) => ({ id: `item-${i}`, band: (i % 5) as Band, createdAt: (i * 7919) % 1e9, unblocks: 0, pool: "default", claimKey: `task:item-${i}`, blockedBy: [], payload: null }));
async function enginePass(): Promise<number> {
  const journal: Journal = { append: () => {} };
  const loop: EngineLoop<null> = { name: "bench", selectQueue: async () => queue, tierPolicy: () => "standard", dispatch: async () => ({ stop: done() }), land: async () => {}, onIdle: () => {} };
  const started = performance.now();
  const summary = await new Engine(loop, new MemoryClaimStore(), new ManualClock(), journal, { ...ENGINE_DEFAULTS, holder: "bench", pool }).run();
  if (summary.items.size !== items) throw new Error("lost work");
  return performance.now() - started;
}

// Best of three each: the machine is shared.
const money = Math.min(moneyPass(), moneyPass(), moneyPass());
const engine = Math.min(await enginePass(), await enginePass(), await enginePass());
// One decision per item: the claim that would carry its reservation.
const perItem = (money * 1e6) / items;
const perDecision = (engine * 1e6) / items;
console.error(`${items} items: reserve+release ${money.toFixed(1)} ms, engine ${engine.toFixed(1)} ms`);
console.log(JSON.stringify({ items, pool, reserve_release_ns_per_item: Math.round(perItem), engine_ns_per_decision: Math.round(perDecision), share_of_decision: Number((perItem / perDecision).toFixed(4)) }));
