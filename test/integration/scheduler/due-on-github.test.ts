/**
 * `due` on the App's tick against the fake GitHub (issue: "one engine for real"): a date alone is
 * the END of that day in UTC, as on the local drain (test/unit/scheduler/faces-agree.test.ts, the
 * same row). A face that read it as midnight would put the date-only item, due later, first.
 * Judged from what GitHub recorded: which item's run the one slot got.
 */
import { afterEach, describe, expect, it } from "vitest";
import { LISTING_LAG_MS } from "../../../src/adapters/github/tick/waits-for-listing.js";
import { REPO, schedulerFixture } from "./scheduler-fixture.js";

type Fixture = Awaited<ReturnType<typeof schedulerFixture>>;
let f: Fixture | undefined;
afterEach(async () => {
  await f?.fake.close();
  f = undefined;
});

const CONFIG = `policy: index\npools:\n  default: {size: 1, dispatch: {kind: workflow, workflow: bosun-work.yml}}\nlease: 10m\n`;

describe("due on the App's tick", () => {
  it("a date-only due is the end of that day (UTC): an item due a minute before it goes first, then the date-only one", async () => {
    f = await schedulerFixture(CONFIG);
    const today = new Date(f.clock.now()).toISOString().slice(0, 10);
    const endOfDay = Date.parse(`${today}T23:59:59Z`);
    const beforeIt = new Date(endOfDay - 60_000).toISOString().replace(/\.\d+Z$/, "Z");
    const dateOnly = await f.queue("date-only", `due: "${today}"`);
    const timed = await f.queue("timed", `due: "${beforeIt}"`);
    const a = f.replica("replica-a");
    expect((await a.tick()).dispatched).toEqual([timed]);
    expect(f.runsOf(dateOnly)).toEqual([]);
    f.fake.completeWorkflowRun(REPO, f.runsOf(timed)[0]?.id ?? 0, "success");
    // Ended with no pull request: landed once the listings' lag is over (`LISTING_LAG_MS`).
    f.clock.advance(LISTING_LAG_MS);
    expect((await f.replica("replica-b").tick()).dispatched).toEqual([dateOnly]);
  });
});
