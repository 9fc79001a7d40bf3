/**
 * The whole life of an in-brief item, on the shipped workflows played job by job against the fake
 * GitHub, with the real App: issue form → approval → snapshot → claim → dispatch → work
 * check/agent/land → pull request → acceptance → gate passes → separation holds the merge, then
 * passes after an independent approval → merge (the required checks enforced) → deployment →
 * verify → done, issue closed, dashboard idle. Judged from what the fake recorded (walk-life.ts).
 * Stage figures (wall time, requests by login) are printed, never asserted.
 */
import { afterEach, describe, test } from "vitest";
import { startLife, type Life } from "./life-world.js";
import { walkInBriefLife } from "./walk-life.js";

let life: Life | undefined;
afterEach(async () => {
  await life?.close();
  life = undefined;
});

describe("the whole life of an in-brief item", () => {
  test("issue form to merged, verified and done: bosun/gate success on the PR head, separation only after an independent approval, one frozen snapshot, dashboard idle", async () => {
    life = await startLife({ verbose: process.env["LIFE_VERBOSE"] === "1" });
    try {
      await walkInBriefLife(life);
    } finally {
      process.stdout.write(`\nwhole life, in brief:\n${life.meter.table()}\n`);
    }
  }, 120_000);
});
