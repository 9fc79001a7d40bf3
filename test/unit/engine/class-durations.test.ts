import { describe, expect, it } from "vitest";
import { ClassDurations } from "../../../src/core/engine/class-durations.js";
import type { EstimatedQueueItem } from "../../../src/core/queue/queue-policy-type.js";

const H = 3_600_000;
const item = (claimKey: string): EstimatedQueueItem & { claimKey: string } => ({ id: claimKey, band: 2, createdAt: 0, unblocks: 0, pool: "default", claimKey });

describe("ClassDurations: the engine's running mean run length per task class", () => {
  it("before any run ends, every item counts one hour", () => {
    const d = new ClassDurations();
    d.publish();
    expect(d.expected(item("bugfix:a"))).toBe(H);
    expect(d.mean()).toBe(H);
  });

  it("groups runs by the claim key's namespace, and gives an unseen class the mean of all runs", () => {
    const d = new ClassDurations();
    d.observe("bugfix:a", 2 * H);
    d.observe("bugfix:b", 4 * H);
    d.observe("docs:c", 0.5 * H);
    d.publish();
    expect(d.expected(item("bugfix:zzz"))).toBe(3 * H);
    expect(d.expected(item("docs:y"))).toBe(0.5 * H);
    expect(d.expected(item("migration:x"))).toBeCloseTo((6.5 * H) / 3, 6);
  });

  it("shows the queue nothing new until published, so a heap is never ordered by two sets of estimates", () => {
    const d = new ClassDurations();
    d.observe("bugfix:a", 2 * H);
    d.publish();
    d.observe("bugfix:b", 4 * H);
    expect(d.expected(item("bugfix:c"))).toBe(2 * H);
    d.publish();
    expect(d.expected(item("bugfix:c"))).toBe(3 * H);
  });

  it("ignores a length that is not a finite, non-negative number (a clock that went backwards)", () => {
    const d = new ClassDurations();
    d.observe("bugfix:a", -5);
    d.observe("bugfix:a", Number.NaN);
    d.observe("bugfix:a", H);
    d.publish();
    expect(d.expected(item("bugfix:x"))).toBe(H);
  });
});
