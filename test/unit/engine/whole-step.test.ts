/**
 * The engine decides through one step over its whole state (issue: "one engine for real"): the
 * renewal of a running claim is part of every decision, not a pass of its own. Before, renewals
 * were a separate call of the step made only when the engine sat waiting for work; while other
 * runs kept finishing one after another it never sat waiting, so a long run's lease lapsed under
 * its live worker and another drain on the same state took the item.
 */
import { describe, expect, it } from "vitest";
import { Engine } from "../../../src/core/engine/engine.js";
import type { EngineLoop, RunResult } from "../../../src/core/engine/engine-loop.js";
import { ENGINE_DEFAULTS } from "../../../src/core/engine/engine-options.js";
import type { WorkItem } from "../../../src/core/engine/work-item.js";
import { policies } from "../../../src/core/queue/queue-policy.js";
import { done } from "../../../src/core/stop/stop.js";
import { MemoryClaimStore } from "../../../src/adapters/memory/memory-claim-store.js";
import { ManualClock } from "../../../src/adapters/memory/manual-clock.js";
import { MemoryJournal } from "../../../src/adapters/memory/memory-journal.js";

const LEASE = 60_000;

const item = (id: string, createdAt: number): WorkItem<null> => ({ id, band: 2, createdAt, unblocks: 0, pool: "default", claimKey: `task:${id}`, blockedBy: [], payload: null });

describe("one step per decision", () => {
  it("a long run keeps its lease while short runs keep finishing beside it: another drain never takes its item", async () => {
    const clock = new ManualClock();
    const store = new MemoryClaimStore();
    const journal = new MemoryJournal();
    const quick = ["q1", "q2", "q3", "q4", "q5", "q6", "q7", "q8"];
    const items = [item("long", 0), ...quick.map((id, i) => item(id, i + 1))];
    let endLong!: () => void;
    const longRun = new Promise<RunResult>((resolve) => (endLong = () => resolve({ stop: done() })));
    // What a second drain on the same state got when it looked around during each short run.
    const other: Array<{ at: string; granted: boolean }> = [];
    const probes: Promise<unknown>[] = [];
    const loop: EngineLoop<null> = {
      name: "busy",
      selectQueue: async () => items,
      tierPolicy: () => "standard",
      dispatch: (_claim, it) => {
        if (it.id === "long") return longRun;
        // The other drain takes back every lapsed lease and claims the long item if it can (the
        // memory store decides at the call, with the time given).
        const now = clock.now();
        probes.push(store.reclaimStale(now), store.claim("task:long", "drain-2", LEASE, now).then((r) => other.push({ at: it.id, granted: r.granted })));
        // Each short run takes a third of a lease; the last one lets the long run end too.
        clock.advance(LEASE / 3);
        if (it.id === quick[quick.length - 1]) endLong();
        return Promise.resolve({ stop: done() });
      },
      land: async () => {},
      onIdle: () => {},
    };
    const engine = new Engine(loop, store, clock, journal, { ...ENGINE_DEFAULTS, holder: "drain-1", pool: 2, leaseMs: LEASE, policy: policies.oldest });
    const summary = await engine.run();
    await Promise.all(probes);
    // Eight short runs span 2⅔ leases: the long one's claim must have been renewed all along.
    expect(clock.now()).toBeGreaterThan(2 * LEASE);
    expect(other.filter((o) => o.granted)).toEqual([]);
    expect(other).toHaveLength(quick.length);
    expect(journal.events.filter((e) => e.event === "LAND" && "fenced" in e)).toEqual([]);
    expect(summary.items.get("long")?.status).toBe("ok");
    expect([...summary.items.values()].every((s) => s.status === "ok")).toBe(true);
  });
});
