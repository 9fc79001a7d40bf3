import { expect, it } from "vitest";
import { RUN_CLOCK_SKEW_MS, runOf, runsOfItem } from "../../../src/adapters/github/tick/run-of.js";
import { batchRunTitle, itemsOfRunTitle } from "../../../src/core/scheduler/stop-from-run.js";
import type { RunView } from "../../../src/adapters/github/tick/tick-github.js";

const GRANT = Date.UTC(2026, 5, 1);
const run = (id: number, title: string, createdAt: number, status = "in_progress", actor = "bosun[bot]"): RunView => ({ id, status, conclusion: null, displayTitle: title, url: `https://example.test/runs/${id}`, createdAt, actor, headSha: "h" });

it("a run id this process kept from an earlier life of the item and epoch is not the new grant's run", () => {
  const old = run(7, "bosun #3 epoch 1", GRANT - RUN_CLOCK_SKEW_MS - 60_000, "completed");
  expect(runOf([old], 3, 1, 7, GRANT, "bosun[bot]")).toBeUndefined();
  const mine = run(8, "bosun #3 epoch 1", GRANT + 1000);
  expect(runOf([old, mine], 3, 1, 8, GRANT, "bosun[bot]")).toBe(mine);
});

it("the runs titled for an item give its highest epoch and whether one is still going; other items' runs and other names do not count", () => {
  const runs = [run(1, "bosun #3 epoch 1", GRANT, "completed"), run(2, "bosun #3 epoch 4", GRANT), run(3, "bosun #30 epoch 9", GRANT), run(4, "bosun", GRANT)];
  expect(runsOfItem(runs, 3, "bosun[bot]")).toEqual({ maxEpoch: 4, live: true });
  expect(runsOfItem(runs.slice(0, 1), 3, "bosun[bot]")).toEqual({ maxEpoch: 1, live: false });
  expect(runsOfItem(runs, 5, "bosun[bot]")).toEqual({ maxEpoch: 0, live: false });
});

it("a run someone else started (anyone with write can dispatch the workflow, with any run name) never speaks for an item", () => {
  const forged = run(9, "bosun #3 epoch 1", GRANT + 1000, "completed", "agent");
  expect(runOf([forged], 3, 1, undefined, GRANT, "bosun[bot]")).toBeUndefined();
  const ours = run(10, "bosun #3 epoch 1", GRANT + 2000, "completed", "bosun[bot]");
  expect(runOf([forged, ours], 3, 1, undefined, GRANT, "bosun[bot]")).toBe(ours);
  // Nor holds a queued item back, or pushes its epochs up: a forged live run titled epoch 999999999.
  const squatter = run(11, "bosun #3 epoch 999999999", GRANT + 3000, "in_progress", "agent");
  expect(runsOfItem([squatter], 3, "bosun[bot]")).toEqual({ maxEpoch: 0, live: false });
  expect(runsOfItem([squatter, ours], 3, "bosun[bot]")).toEqual({ maxEpoch: 1, live: false });
});

it.each([
  ["bosun #3 epoch 1", [{ item: "3", epoch: 1 }]],
  ["bosun #3 epoch 2, #30 epoch 1, #4 epoch 7", [{ item: "3", epoch: 2 }, { item: "30", epoch: 1 }, { item: "4", epoch: 7 }]],
  ["bosun #3 epoch 1 (copy)", []],
  ["bosun #3 epoch 1,#4 epoch 1", []],
  ["bosun #3 epoch 0", []],
  ["bosun #3 epoch 01", []],
  ["bosun #3 epoch 1e3", []],
  ["xbosun #3 epoch 1", []],
  ["bosun #3 epoch 1, ", []],
  ["bosun #3 epoch 99999999999999999999", []],
  ["bosun", []],
])("the run name %j names %j: only a whole name as Bosun writes it names anything", (title, items) => {
  expect(itemsOfRunTitle(title)).toEqual(items);
  expect(batchRunTitle(items).length > "bosun ".length ? itemsOfRunTitle(batchRunTitle(items)) : items).toEqual(items);
});

it("a batch run names each of its items at its own epoch: the run of one item's epoch, never another's", () => {
  const batch = run(12, batchRunTitle([{ item: "3", epoch: 2 }, { item: "4", epoch: 1 }]), GRANT + 1000);
  expect(runOf([batch], 3, 2, undefined, GRANT, "bosun[bot]")).toBe(batch);
  expect(runOf([batch], 4, 1, undefined, GRANT, "bosun[bot]")).toBe(batch);
  expect(runOf([batch], 3, 1, undefined, GRANT, "bosun[bot]")).toBeUndefined();
  expect(runOf([batch], 5, 1, undefined, GRANT, "bosun[bot]")).toBeUndefined();
  // An item whose leg landed from this run is not kept from its next grant while the run works on 4.
  expect(runsOfItem([batch], 3, "bosun[bot]")).toEqual({ maxEpoch: 2, live: true });
  expect(runsOfItem([batch], 3, "bosun[bot]", { run: 12, epoch: 2 })).toEqual({ maxEpoch: 2, live: false });
  expect(runsOfItem([batch], 3, "bosun[bot]", { run: 99, epoch: 2 })).toEqual({ maxEpoch: 2, live: true });
});
