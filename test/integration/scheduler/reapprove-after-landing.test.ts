/**
 * A re-approval after a landing is a new approval event: the item runs again, at the next epoch,
 * under the same frozen snapshot when the brief did not change (nothing Bosun does edits it).
 * Judged from the fake: its runs, its claim record, its comments.
 */
import { afterEach, describe, expect, it } from "vitest";
import { parseClaimMessage } from "../../../src/core/claims/claim-record.js";
import { REPO, schedulerFixture } from "./scheduler-fixture.js";

type Fixture = Awaited<ReturnType<typeof schedulerFixture>>;
let f: Fixture | undefined;
afterEach(async () => {
  await f?.fake.close();
  f = undefined;
});

const recordOf = (fx: Fixture, n: number) => {
  const ref = `refs/bosun/claims/${n}`;
  return parseClaimMessage(fx.fake.repo(REPO).commits.get(fx.fake.repo(REPO).refs.get(ref) ?? "")?.message ?? "", ref);
};

describe("re-approval after a landing", () => {
  it("an item that went to a human runs again once a maintainer approves it again, at the next epoch, under its unedited snapshot", async () => {
    f = await schedulerFixture(`pools:\n  default: {size: 1, dispatch: {kind: workflow, workflow: bosun-work.yml}}\n`);
    const n = await f.queue("again");
    const a = f.replica("a");
    await a.tick();
    const first = recordOf(f, n);
    f.fake.completeWorkflowRun(REPO, f.runsOf(n)[0]?.id ?? 0, "failure");
    f.clock.advance(10_000);
    await a.tick();
    expect(f.labelsOf(n)).toEqual(["bosun:needs-human", "bosun:ready"]);
    // Ticks without a new approval leave it with the human.
    f.clock.advance(60_000);
    await a.tick();
    expect(f.runsOf(n)).toHaveLength(1);
    await f.reapprove(n);
    f.clock.advance(10_000);
    await f.replica("b").tick();
    expect(f.runsOf(n).map((r) => r.epoch)).toEqual([1, 2]);
    const again = recordOf(f, n);
    expect(again).toMatchObject({ state: "held", epoch: 2 });
    expect(again?.approval?.id).not.toBe(first?.approval?.id);
    const snapshots = [...f.fake.repo(REPO).comments.values()].filter((c) => c.issueNumber === n && c.body.startsWith("<!-- bosun:snapshot -->"));
    expect(snapshots.map((c) => c.updatedAt === c.createdAt)).toEqual([true]);
  });
});
