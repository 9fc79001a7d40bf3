/** The tick on the fake GitHub: gather → plan → apply, judged from what GitHub recorded. */
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
  const sha = fx.fake.repo(REPO).refs.get(ref);
  return sha === undefined ? undefined : parseClaimMessage(fx.fake.repo(REPO).commits.get(sha)?.message ?? "", ref);
};

describe("the tick on the fake GitHub", () => {
  it("takes an approval in once — snapshot, record — claims it and dispatches it in the same tick, with no status comment (the labels say it)", async () => {
    f = await schedulerFixture();
    const n = await f.queue("alpha");
    const a = f.replica("replica-a");
    const report = await a.tick();
    expect(report.dispatched).toEqual([n]);
    expect(f.commentsOf(n).map(([who, first]) => [who, first])).toEqual([["bosun[bot]", "<!-- bosun:snapshot -->"]]);
    expect(recordOf(f, n)).toMatchObject({ state: "held", epoch: 1, approval: { by: "mona" }, statusComment: false });
    expect(f.labelsOf(n)).toEqual(["bosun:claimed", "bosun:ready"]);
    expect(f.runsOf(n)).toMatchObject([{ epoch: 1 }]);
    // A second replica and a redelivery change nothing and post nothing.
    await f.replica("replica-b").tick();
    await a.tick();
    expect(f.commentsOf(n)).toHaveLength(1);
    expect(f.runsOf(n)).toHaveLength(1);
  });

  it("an approval by someone with write only (an agent pushes branches with write) is not taken in", async () => {
    f = await schedulerFixture();
    f.fake.addToken("t-agent", "agent", { permissions: { [REPO]: "write" } });
    const issue = f.fake.addIssue(REPO, { title: "x", body: "```yaml\ngoal: X.\nconstraints: {paths: [src/**]}\nacceptance: {command: npm test}\nsize_cap: 10\n```\n", user: "tia" });
    const { createTestOctokit } = await import("../../fake-github/test-octokit.js");
    await createTestOctokit(f.fake.url, "t-agent").issues.addLabels({ owner: "acme", repo: "app", issue_number: issue.number, labels: ["bosun:ready"] });
    const report = await f.replica("a").tick();
    expect(report.dispatched).toEqual([]);
    expect(recordOf(f, issue.number)).toBeUndefined();
    expect(f.commentsOf(issue.number)).toEqual([]);
    expect(report.view.notes[0]?.note).toContain("approving needs maintain");
  });

  it("a withdrawn approval is never dispatched, whatever labels a triager puts back", async () => {
    f = await schedulerFixture(`pools:\n  default: {size: 0, dispatch: {kind: workflow, workflow: bosun-work.yml}}\n`);
    const n = await f.queue("beta");
    await f.replica("a").tick();
    expect(recordOf(f, n)).toMatchObject({ state: "approved" });
    await f.maintainer.issues.removeLabel({ owner: "acme", repo: "app", issue_number: n, name: "bosun:ready" });
    f.fake.addToken("t-triager", "tia2", { permissions: { [REPO]: "triage" } });
    const { createTestOctokit } = await import("../../fake-github/test-octokit.js");
    await createTestOctokit(f.fake.url, "t-triager").issues.addLabels({ owner: "acme", repo: "app", issue_number: n, labels: ["bosun:queued"] });
    const grown = f.replica("b", undefined, { ...f.config, pools: { default: { size: 2, tier: "standard", dispatch: { kind: "workflow", workflow: "bosun-work.yml" } } } });
    const report = await grown.tick();
    expect(report.dispatched).toEqual([]);
    expect(recordOf(f, n)).toMatchObject({ state: "withdrawn" });
    expect(f.runsOf(n)).toEqual([]);
  });

  it("an approval older than a minute is read again before its grant: withdrawn and put back by an agent, both webhooks lost, nothing is dispatched", async () => {
    f = await schedulerFixture(`pools:\n  default: {size: 0, dispatch: {kind: workflow, workflow: bosun-work.yml}}\n`);
    const n = await f.queue("delta");
    await f.replica("a").tick();
    expect(recordOf(f, n)).toMatchObject({ state: "approved", approval: { by: "mona" } });
    await f.maintainer.issues.removeLabel({ owner: "acme", repo: "app", issue_number: n, name: "bosun:ready" });
    f.fake.addToken("t-agent", "agent", { permissions: { [REPO]: "write" } });
    const { createTestOctokit } = await import("../../fake-github/test-octokit.js");
    await createTestOctokit(f.fake.url, "t-agent").issues.addLabels({ owner: "acme", repo: "app", issue_number: n, labels: ["bosun:ready"] });
    f.clock.advance(61_000);
    const grown = f.replica("b", undefined, { ...f.config, pools: { default: { size: 2, tier: "standard", dispatch: { kind: "workflow", workflow: "bosun-work.yml" } } } });
    const report = await grown.tick();
    expect(report.dispatched).toEqual([]);
    expect(f.runsOf(n)).toEqual([]);
    expect(recordOf(f, n)?.state).not.toBe("held");
  });

  it("a claim ref an agent wrote itself is not believed: no pool slot, no held item, written over", async () => {
    f = await schedulerFixture(`pools:\n  default: {size: 1, dispatch: {kind: workflow, workflow: bosun-work.yml}}\n`);
    const n = await f.queue("gamma");
    f.fake.addToken("t-agent", "agent", { permissions: { [REPO]: "write" } });
    const { createTestOctokit } = await import("../../fake-github/test-octokit.js");
    const agent = createTestOctokit(f.fake.url, "t-agent");
    const forged = { key: "task:gamma", holder: "agent", epoch: 1, state: "held", leaseUntil: Date.now() + 30 * 86_400_000, at: Date.now(), pool: "default" };
    const { data: commit } = await agent.git.createCommit({ owner: "acme", repo: "app", message: `bosun claim task:gamma epoch 1 held by agent\n\n${JSON.stringify(forged)}\n`, tree: "4b825dc642cb6eb9a060e54bf8d69288fbee4904", parents: [] });
    await agent.git.createRef({ owner: "acme", repo: "app", ref: `refs/bosun/claims/${n}`, sha: commit.sha });
    const report = await f.replica("a").tick();
    expect(report.dispatched).toEqual([n]);
    expect(recordOf(f, n)).toMatchObject({ state: "held", epoch: 1, holder: "a" });
  });
});
