/**
 * The blocker rule on the App's tick against the fake GitHub (issue: "one engine for real"): a
 * parent named by brief id keeps its child out while it is pending, on hold, or after it went to
 * a human; only a parent that landed ok lets it run. Judged from what GitHub recorded: the runs
 * dispatched for the child. The local drain's side of the same rows is
 * test/unit/scheduler/faces-agree.test.ts and test/unit/engine/engine.test.ts.
 */
import { afterEach, describe, expect, it } from "vitest";
import { REPO, schedulerFixture } from "./scheduler-fixture.js";

type Fixture = Awaited<ReturnType<typeof schedulerFixture>>;
let f: Fixture | undefined;
afterEach(async () => {
  await f?.fake.close();
  f = undefined;
});

const CONFIG = `pools:\n  default: {size: 2, dispatch: {kind: workflow, workflow: bosun-work.yml}}\nlease: 10m\n`;

describe("blockers on the App's tick", () => {
  it("a parent whose run went to a human keeps its child out for good, with the reason shown", async () => {
    f = await schedulerFixture(CONFIG);
    const parent = await f.queue("parent");
    const child = await f.queue("child", "blocked_by: [parent]");
    const a = f.replica("replica-a");
    const first = await a.tick();
    expect(first.dispatched).toEqual([parent]);
    expect(first.view.waiting.find((w) => w.n === child)?.reason).toBe("blocked by parent");
    f.fake.completeWorkflowRun(REPO, f.runsOf(parent)[0]?.id ?? 0, "failure");
    f.clock.advance(10_000);
    await a.tick();
    expect(f.labelsOf(parent)).toContain("bosun:needs-human");
    // Ticks by both replicas, long after: the child never runs while a human holds its parent.
    for (let i = 0; i < 3; i++) {
      f.clock.advance(15 * 60_000);
      const view = (await f.replica(`replica-${i}`).tick()).view;
      expect(view.waiting.find((w) => w.n === child)?.reason).toBe("blocked: parent did not land ok");
    }
    expect(f.runsOf(child)).toEqual([]);
  });

  it("a parent on hold keeps its child waiting; lifting the hold runs the parent first", async () => {
    f = await schedulerFixture(`pools:\n  default: {size: 1, dispatch: {kind: workflow, workflow: bosun-work.yml}}\nlease: 10m\n`);
    // The one slot is busy while the parent and child are approved; then a maintainer holds the
    // parent (a new approval lifts a hold, so the hold comes after it, as it would in life).
    const busy = await f.queue("busy");
    const parent = await f.queue("parent");
    const child = await f.queue("child", "blocked_by: [parent]");
    const a = f.replica("replica-a");
    expect((await a.tick()).dispatched).toEqual([busy]);
    await f.maintainer.issues.addLabels({ owner: "acme", repo: "app", issue_number: parent, labels: ["bosun:hold"] });
    f.fake.completeWorkflowRun(REPO, f.runsOf(busy)[0]?.id ?? 0, "failure");
    for (let i = 0; i < 3; i++) {
      f.clock.advance(60_000);
      const report = await f.replica(`replica-${i}`).tick();
      expect(report.dispatched).toEqual([]);
      expect(report.view.waiting.find((w) => w.n === child)?.reason).toBe("blocked by parent");
    }
    expect(f.runsOf(parent)).toEqual([]);
    expect(f.runsOf(child)).toEqual([]);
    await f.maintainer.issues.removeLabel({ owner: "acme", repo: "app", issue_number: parent, name: "bosun:hold" });
    f.clock.advance(60_000);
    expect((await a.tick()).dispatched).toEqual([parent]);
    expect(f.runsOf(child)).toEqual([]);
  });
});
