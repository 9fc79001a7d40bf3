/**
 * Moves of a `label` pool item the tick-reads and tick-fencing tests share: its first attempt's pull
 * request closed unmerged and the item requeued by a maintainer, and a worker's pull request opened
 * as its lease runs out, unheard by the replica.
 */
import { expect } from "vitest";
import { parseClaimMessage } from "../../../src/core/claims/claim-record.js";
import { REPO, type schedulerFixture } from "./scheduler-fixture.js";

type Fixture = Awaited<ReturnType<typeof schedulerFixture>>;
type Replica = ReturnType<Fixture["replica"]>;

export const LABEL_POOL = `pools:\n  default: {size: 1, dispatch: {kind: label, label: fix-me}}\nlease: 10m\n`;

const recordOf = (f: Fixture, n: number) => {
  const ref = `refs/bosun/claims/${n}`;
  const sha = f.fake.repo(REPO).refs.get(ref);
  return sha === undefined ? undefined : parseClaimMessage(f.fake.repo(REPO).commits.get(sha)?.message ?? "", ref);
};

/** The granted item's first pull request is closed unmerged (a human), a maintainer requeues it, and it is granted again at epoch 2. */
export async function closedThenRequeued(f: Fixture, a: Replica, n: number): Promise<void> {
  const first = f.fake.addPull(REPO, { head: `agent/${n}-fix`, base: "main", body: `Closes #${n}`, user: "agent" });
  await f.maintainer.pulls.update({ owner: "acme", repo: "app", pull_number: first.number, state: "closed" });
  f.clock.advance(10_000);
  a.ticker.invalidate("pulls");
  await a.tick();
  expect(recordOf(f, n)).toMatchObject({ state: "settled", epoch: 1, outcome: { disposition: "human" } });
  expect(await a.ticker.retryByPerson(f.config, n, "mona")).toBe("requeued");
  f.clock.advance(120_000);
  await a.tick();
  expect(recordOf(f, n)).toMatchObject({ state: "held", epoch: 2 });
}

/**
 * A minute before the held item's lease runs out a tick lists the pull requests again (its listing
 * had aged out); then the worker opens its pull request, the replica hears nothing, the lease runs
 * out and the replica ticks. Answers the pull request.
 */
export async function openedAsLeaseRunsOut(f: Fixture, a: Replica, n: number): Promise<{ number: number }> {
  f.clock.advance((recordOf(f, n)?.leaseUntil ?? 0) - 60_000 - f.clock.now());
  await a.tick();
  f.clock.advance(30_000);
  const pull = f.fake.addPull(REPO, { head: `bosun/${n}-work`, base: "main", body: `Closes #${n}`, user: "agent" });
  f.clock.advance(60_000);
  await a.tick();
  return pull;
}
