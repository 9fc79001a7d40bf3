import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Band } from "../../../src/core/brief/brief.js";
import type { QueueItem } from "../../../src/core/queue/queue-item.js";
import { indexScore, policies } from "../../../src/core/queue/queue-policy.js";
import { ReadyQueue } from "../../../src/core/queue/ready-queue.js";

const H = 3_600_000;
const NOW = Date.UTC(2026, 10, 30);
const item = (id: string, band: Band, ageH: number, extra: Partial<QueueItem> = {}): QueueItem => ({ id, band, createdAt: NOW - ageH * H, unblocks: 0, pool: "default", ...extra });

const queue = [item("p2-old", 2, 50), item("p0-new", 0, 1), item("p2-new", 2, 2), item("p1-mid", 1, 10), item("p0-old", 0, 30), item("p4-ancient", 4, 500)];

const order = (name: keyof typeof policies, items: QueueItem[], now = NOW): string[] => [...items].sort((a, b) => policies[name].compare(a, b, now)).map((i) => i.id);

describe("queue policies", () => {
  it.each([
    ["oldest: created ascending, whatever the band", "oldest", ["p4-ancient", "p2-old", "p0-old", "p1-mid", "p2-new", "p0-new"]],
    ["priority: band ascending, then newest first", "priority", ["p0-new", "p0-old", "p1-mid", "p2-new", "p2-old", "p4-ancient"]],
    ["hybrid: band ascending, then oldest first", "hybrid", ["p0-old", "p0-new", "p1-mid", "p2-old", "p2-new", "p4-ancient"]],
    ["index: band first, then due, unblocking and age", "index", ["p0-old", "p0-new", "p1-mid", "p2-old", "p2-new", "p4-ancient"]],
  ] as const)("%s", (_name, policy, expected) => {
    expect(order(policy, queue)).toEqual(expected);
  });

  it("oldest breaks ties by id so the order is total", () => {
    expect(order("oldest", [item("b", 2, 1), item("a", 2, 1)])).toEqual(["a", "b"]);
  });

  it("index puts a due-soon item ahead of an older one in the same band", () => {
    const dueSoon = item("due-soon", 2, 1, { due: NOW + 2 * H });
    expect(order("index", [item("old", 2, 48), dueSoon])).toEqual(["due-soon", "old"]);
  });

  it("index puts an item that unblocks others ahead of a plain one of the same age", () => {
    expect(order("index", [item("plain", 3, 5), item("unblocker", 3, 5, { unblocks: 3 })])).toEqual(["unblocker", "plain"]);
  });

  it("index never orders a lower band before a higher one, whatever the secondary features (property)", () => {
    const arbItem = fc.record({
      band: fc.integer({ min: 0, max: 4 }),
      ageH: fc.double({ min: 0, max: 10_000, noNaN: true }),
      dueInH: fc.option(fc.double({ min: -10_000, max: 10_000, noNaN: true })),
      unblocks: fc.nat(1000),
    });
    fc.assert(
      fc.property(arbItem, arbItem, fc.integer({ min: 0, max: 4_000_000_000_000 }), (a, b, now) => {
        const mk = (x: typeof a, id: string): QueueItem => ({ id, band: x.band as Band, createdAt: now - x.ageH * H, unblocks: x.unblocks, pool: "p", ...(x.dueInH === null ? {} : { due: now + x.dueInH * H }) });
        const ia = mk(a, "a");
        const ib = mk(b, "b");
        if (ia.band < ib.band) {
          expect(policies.index.compare(ia, ib, now)).toBeLessThan(0);
          expect(indexScore(ia, now)).toBeGreaterThan(indexScore(ib, now));
        }
      }),
      { numRuns: 20_000 },
    );
  });
});

describe("ready queue", () => {
  it("pops in policy order and skips removed items", () => {
    const q = new ReadyQueue(policies.hybrid, NOW);
    for (const i of queue) q.push(i);
    q.remove("p1-mid");
    const popped: string[] = [];
    for (let i = q.pop(NOW); i !== undefined; i = q.pop(NOW)) popped.push(i.id);
    expect(popped).toEqual(["p0-old", "p0-new", "p2-old", "p2-new", "p4-ancient"]);
  });

  it("pops exactly what a full sort gives, for every policy and many random queues (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ band: fc.integer({ min: 0, max: 4 }), ageH: fc.nat(2000), due: fc.option(fc.nat(400)), unblocks: fc.nat(6) }), { maxLength: 60 }),
        fc.constantFrom(...(Object.keys(policies) as Array<keyof typeof policies>)),
        (specs, name) => {
          const items = specs.map((s, i) => item(`i${i}`, s.band as Band, s.ageH, { unblocks: s.unblocks, ...(s.due === null ? {} : { due: NOW + s.due * H }) }));
          const q = new ReadyQueue(policies[name], NOW);
          for (const i of items) q.push(i);
          const popped: string[] = [];
          for (let i = q.pop(NOW); i !== undefined; i = q.pop(NOW)) popped.push(i.id);
          expect(popped).toEqual(order(name, items));
        },
      ),
      { numRuns: 500 },
    );
  });

  it("reorders a time-dependent policy when the clock has moved on", () => {
    const q = new ReadyQueue(policies.index, NOW);
    // Same band. Now: 'aged' leads on age, 'due-later' is due in 20 days, too far to count yet.
    q.push(item("aged", 2, 24));
    q.push(item("due-later", 2, 0, { due: NOW + 20 * 24 * H }));
    expect(q.peek(NOW)?.id).toBe("aged");
    // Two weeks on, both have aged past the horizon and the due date now counts.
    const later = NOW + 14 * 24 * H;
    expect(q.peek(later)?.id).toBe("due-later");
    expect(order("index", q.ordered(later), later)).toEqual(["due-later", "aged"]);
  });
});
