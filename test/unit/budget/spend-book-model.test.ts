/**
 * The spend book against the plainest model of it (every reservation kept, every total summed on
 * demand), over random runs of reservations, settlements and cancels across days and weeks: the
 * rooms it answers — including rooms asked for earlier and kept current since — what it stores, and
 * a book read back from what it stored, all agree with the model.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { BudgetCap } from "../../../src/core/budget/budget-cap.js";
import { windowStart } from "../../../src/core/budget/budget-cap.js";
import { SpendBook } from "../../../src/core/budget/spend-book.js";

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 11, 3, 22); // a Thursday evening: days and a week roll over within the run
const caps: BudgetCap[] = [
  { name: "fleet-day", window: "day", micros: 9_000 },
  { name: "fleet-week", window: "week", micros: 30_000 },
  { name: "a-day", window: "day", micros: 4_000, pool: "a" },
  { name: "b-week", window: "week", micros: 12_000, pool: "b" },
];

type Op = { kind: "reserve"; pool: "a" | "b"; micros: number; step: number } | { kind: "settle"; pick: number; reported: number | undefined } | { kind: "cancel"; pick: number } | { kind: "look"; step: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant("reserve" as const), pool: fc.constantFrom("a" as const, "b" as const), micros: fc.integer({ min: 0, max: 3_000 }), step: fc.integer({ min: 0, max: 5 * 3_600_000 }) }),
  fc.record({ kind: fc.constant("settle" as const), pick: fc.nat(), reported: fc.option(fc.integer({ min: 0, max: 4_000 }), { nil: undefined }) }),
  fc.record({ kind: fc.constant("cancel" as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant("look" as const), step: fc.integer({ min: 0, max: 5 * 3_600_000 }) }),
);

interface ModelEntry {
  ticket: string;
  pool: string;
  at: number;
  micros: number;
  settled: boolean;
}

const modelUsed = (model: readonly ModelEntry[], cap: BudgetCap, now: number): number =>
  model.filter((e) => (cap.pool === undefined || cap.pool === e.pool) && windowStart(e.at, cap.window) === windowStart(now, cap.window)).reduce((s, e) => s + e.micros, 0);

describe("the spend book", () => {
  it("agrees with a model that keeps every entry, live rooms and stored book included", () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 80 }), (ops) => {
        const book = new SpendBook();
        const model: ModelEntry[] = [];
        let now = T0;
        let n = 0;
        let live = book.rooms(caps, now);
        let liveAt = now;
        for (const op of ops) {
          if (op.kind === "reserve") {
            now += op.step;
            const ticket = `t${++n}`;
            const fits = caps.every((c) => (c.pool !== undefined && c.pool !== op.pool) || modelUsed(model, c, now) + op.micros <= c.micros);
            const hold = book.reserveWithin(caps, { ticket, item: ticket, pool: op.pool, at: now, micros: op.micros });
            expect(hold === undefined).toBe(fits);
            if (fits) model.push({ ticket, pool: op.pool, at: now, micros: op.micros, settled: false });
          } else if (op.kind === "look") {
            now += op.step;
            live = book.rooms(caps, now);
            liveAt = now;
          } else {
            const open = model.filter((e) => !e.settled);
            const e = open[op.pick % Math.max(1, open.length)];
            if (e === undefined) continue;
            if (op.kind === "settle") {
              expect(book.settle(e.ticket, op.reported)).toBe(true);
              e.settled = true;
              if (op.reported !== undefined) e.micros = op.reported;
              // Settled once: the first report stands.
              expect(book.settle(e.ticket, 1)).toBe(false);
            } else {
              expect(book.cancel(e.ticket)).toBe(true);
              model.splice(model.indexOf(e), 1);
            }
          }
          // Rooms asked for earlier are still right for the moment they were asked at.
          expect(live.map((r) => r.used)).toEqual(caps.map((c) => modelUsed(model, c, liveAt)));
        }
        for (const at of [now, now + DAY, now + 7 * DAY]) expect(book.rooms(caps, at).map((r) => r.used)).toEqual(caps.map((c) => modelUsed(model, c, at)));
        // What it stores (reservations in flight, settled spend per pool and day) reads back the same.
        const again = new SpendBook(book.reservations(), book.spentByDay());
        expect(again.rooms(caps, now).map((r) => r.used)).toEqual(caps.map((c) => modelUsed(model, c, now)));
        expect(book.reservations().map((r) => r.ticket).sort()).toEqual(model.filter((e) => !e.settled).map((e) => e.ticket).sort());
        for (const cap of caps) expect(book.reserved(cap, now)).toBe(modelUsed(model.filter((e) => !e.settled), cap, now));
      }),
      { numRuns: 300 },
    );
  });

  it("forgets what no cap looks at any more, and keeps the week a cap still counts", () => {
    const book = new SpendBook();
    const week = caps[1] as BudgetCap;
    book.reserveWithin(caps, { ticket: "old", item: "old", pool: "a", at: T0 - 9 * DAY, micros: 100 });
    book.settle("old", 100);
    book.reserveWithin(caps, { ticket: "mon", item: "mon", pool: "a", at: Date.UTC(2026, 10, 30, 1), micros: 200 });
    book.settle("mon", undefined);
    book.prune(T0 - 8 * DAY);
    expect(book.spentByDay()).toEqual([{ pool: "a", day: Date.UTC(2026, 10, 30), micros: 200 }]);
    expect(book.rooms([week], T0)[0]?.used).toBe(200);
  });
});
