import { describe, expect, it } from "vitest";
import { planAction, tickedActions, untick } from "../../../src/core/dashboard/dashboard-actions.js";
import { DEFAULT_LABELS } from "../../../src/core/config/labels.js";
import { relativeTime } from "../../../src/core/dashboard/relative-time.js";

const L = DEFAULT_LABELS;

describe("dashboard checkboxes", () => {
  const body = ["1. [x] <!-- bosun:hold=4 --> #4 a", "2. [ ] <!-- bosun:hold=9 --> #9 b", "- [X] <!-- bosun:retry=5 --> #5 c", "- [x] <!-- bosun:retry=5 --> again", "- [x] <!-- bosun:delete=7 --> not ours", "- [x] bosun:hold=8 without a marker"].join("\n");

  it("reads the ticked boxes once each, only Bosun's four actions behind a marker", () => {
    expect(tickedActions(body)).toEqual([
      { action: "hold", issue: 4 },
      { action: "retry", issue: 5 },
    ]);
  });

  it("clears exactly the boxes it is given", () => {
    const cleared = untick(body, [{ action: "hold", issue: 4 }]);
    expect(tickedActions(cleared)).toEqual([{ action: "retry", issue: 5 }]);
    expect(cleared.split("\n")[0]).toBe("1. [ ] <!-- bosun:hold=4 --> #4 a");
  });

  it.each([
    // A retry is a record Bosun writes (the queue is the records), not a label anyone could add.
    ["retry", [L.ready, L.needsHuman], { record: "retry" }],
    ["retry", [L.ready, L.queued], { skip: "it is not labelled bosun:needs-human" }],
    ["requeue", [L.ready, L.done], { record: "requeue" }],
    ["hold", [L.ready, L.queued], { remove: [], add: [L.hold] }],
    ["hold", [L.ready, L.queued, L.hold], { skip: "it is held already" }],
    ["hold", [L.ready, L.queued, L.claimed], { skip: "it is in flight" }],
    ["release", [L.ready, L.queued, L.hold], { remove: [L.hold], add: [] }],
    ["release", [L.ready, L.queued], { skip: "it is not held" }],
  ] as const)("%s on %j → %j", (action, labels, plan) => {
    expect(planAction(action, { open: true, labels }, L)).toEqual(plan);
  });

  it("acts on no closed issue", () => {
    expect(planAction("release", { open: false, labels: [L.hold] }, L)).toEqual({ skip: "the issue is closed" });
  });

  it.each([
    [4 * 60_000, "in 4 min"],
    [-3 * 3_600_000, "3 h ago"],
    [20_000, "in under a minute"],
    [-3 * 86_400_000, "3 days ago"],
  ])("relative time %i ms → %s", (delta, text) => {
    expect(relativeTime(1_000_000_000 + delta, 1_000_000_000)).toBe(text);
  });
});
