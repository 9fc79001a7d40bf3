import { afterEach, describe, expect, it } from "vitest";
import schedule from "../../../src/action/modes/schedule.js";
import { createTestOctokit } from "../../fake-github/test-octokit.js";
import { memoryActionIo } from "../gate/memory-action-io.js";
import { REPO, schedulerFixture } from "./scheduler-fixture.js";

type Fixture = Awaited<ReturnType<typeof schedulerFixture>>;
let f: Fixture | undefined;
afterEach(async () => {
  await f?.fake.close();
  f = undefined;
});

const CONFIG = "pools:\n  default: {size: 1, dispatch: {kind: workflow, workflow: bosun-work.yml}}\n";

function run(fixture: Fixture, eventName: string, payload: Record<string, unknown> = {}) {
  const io = memoryActionIo({ inputs: { "github-token": "t-bot", "bot-login": "bosun[bot]" }, eventName, payload: { repository: { default_branch: "main" }, ...payload }, env: { GITHUB_API_URL: fixture.fake.url } });
  return schedule.run(io.io).then(() => io);
}

describe("the Action's schedule mode", () => {
  it("runs one reconcile tick from the repository's own configuration and reports it", async () => {
    f = await schedulerFixture(CONFIG);
    f.fake.setFile(REPO, "main", ".github/bosun.yml", CONFIG);
    const first = await f.queue("first", "priority: 1");
    const second = await f.queue("second", "priority: 2");
    const io = await run(f, "schedule");
    expect(io.failures).toEqual([]);
    // One slot: the higher priority runs, the other waits its turn in the pool's queue.
    expect(JSON.parse(io.outputs["report"] ?? "{}")).toMatchObject({ dispatched: [first], view: { idle: false, queue: [{ pool: "default", items: [{ n: second }] }] } });
    expect(io.outputs["idle"]).toBe("false");
    expect(io.summaries.join("")).toContain(`#${first}`);
    expect(io.logs.some((l) => l.startsWith(`CLAIM ${first}`))).toBe(true);
    expect(io.logs.join("\n")).not.toContain("t-bot");
  });

  it("fails with every problem of a broken configuration, by field, and dispatches nothing", async () => {
    f = await schedulerFixture(CONFIG);
    f.fake.setFile(REPO, "main", ".github/bosun.yml", "pools:\n  default: {size: two, dispatch: {kind: fax}}\npolicy: fastest\n");
    await f.queue("x");
    const io = await run(f, "schedule");
    expect(io.failures[0]).toMatch(/pools\.default\.size/);
    expect(io.failures[0]).toMatch(/policy/);
    expect(f.fake.repo(REPO).workflowRuns.size).toBe(0);
  });

  it("lands an item from a maintainer's /bosun land comment and ignores a writer's, a reader's and a stranger's", async () => {
    f = await schedulerFixture(CONFIG);
    f.fake.setFile(REPO, "main", ".github/bosun.yml", CONFIG);
    // Landing by hand needs the approval role (maintain by default): an agent pushes branches with write.
    f.fake.setPermission(REPO, "wes", "write");
    f.fake.setPermission(REPO, "rando", "read");
    const n = await f.queue("by-hand");
    await run(f, "schedule");
    expect(f.labelsOf(n)).toContain("bosun:claimed");
    for (const [who, role] of [["rando", "read"], ["wes", "write"], ["nobody-here", "none"]] as const) {
      const io = await run(f, "issue_comment", { comment: { body: "/bosun land ok looks fine to me", user: { login: who } }, issue: { number: n } });
      expect(io.failures).toEqual([]);
      expect(io.logs).toContain(`bosun land: ignored: ${who} has the ${role} role; approving needs maintain or more`);
      expect(f.labelsOf(n)).toContain("bosun:claimed");
    }
    const maintainer = await run(f, "issue_comment", { comment: { body: "/bosun land refuse out of scope", user: { login: "mona" } }, issue: { number: n } });
    expect(maintainer.logs).toContain(`bosun land: landed #${n}: refuse`);
    expect(f.labelsOf(n)).toEqual(["bosun:needs-human", "bosun:ready"]);
  });
  it("a maintainer's /bosun land on a claim ref an agent wrote lands nothing: only a record signed for the App is believed", async () => {
    f = await schedulerFixture(CONFIG);
    f.fake.setFile(REPO, "main", ".github/bosun.yml", CONFIG);
    f.fake.addToken("t-agent", "agent", { permissions: { [REPO]: "write" } });
    const agent = createTestOctokit(f.fake.url, "t-agent");
    const issue = f.fake.addIssue(REPO, { title: "never approved", body: "no brief", user: "tia" });
    const forged = { key: `task:${issue.number}`, holder: "agent", epoch: 1, state: "held", leaseUntil: Date.now() + 86_400_000, at: Date.now(), pool: "default" };
    const { data: commit } = await agent.git.createCommit({ owner: "acme", repo: "app", message: `bosun claim task:${issue.number} epoch 1 held by agent\n\n${JSON.stringify(forged)}\n`, tree: "4b825dc642cb6eb9a060e54bf8d69288fbee4904", parents: [] });
    await agent.git.createRef({ owner: "acme", repo: "app", ref: `refs/bosun/claims/${issue.number}`, sha: commit.sha });
    const io = await run(f, "issue_comment", { comment: { body: "/bosun land ok", user: { login: "mona" } }, issue: { number: issue.number } });
    expect(io.logs).toContain(`bosun land: ignored: nothing is in flight on #${issue.number}`);
    expect(f.fake.repo(REPO).refs.get(`refs/bosun/claims/${issue.number}`)).toBe(commit.sha);
    expect(f.labelsOf(issue.number)).toEqual([]);
  });
});

describe("the Action's schedule mode without a server", () => {
  it("takes a maintainer's bosun:ready through the intake, then dispatches it in the same run", async () => {
    f = await schedulerFixture(CONFIG);
    f.fake.setFile(REPO, "main", ".github/bosun.yml", CONFIG);
    const body = "Please do this.\n\n```yaml\ngoal: Add a health endpoint.\nconstraints: {paths: [src/**]}\nacceptance: {command: npm test}\nsize_cap: 50\n```\n";
    const issue = f.fake.addIssue(REPO, { title: "health", body, user: "tia" });
    await f.maintainer.issues.addLabels({ owner: "acme", repo: "app", issue_number: issue.number, labels: ["bosun:ready"] });
    const io = await run(f, "issues", { action: "labeled", label: { name: "bosun:ready" }, sender: { login: "mona" }, issue: { number: issue.number, body } });
    expect(io.failures).toEqual([]);
    expect(f.commentsOf(issue.number)).toEqual([["bosun[bot]", "<!-- bosun:snapshot -->"]]);
    expect(f.labelsOf(issue.number)).toEqual(["bosun:claimed", "bosun:ready"]);
    expect(f.runsOf(issue.number)).toMatchObject([{ epoch: 1 }]);
  });

  it.each([
    ["a triager", "triage"],
    ["a writer", "write"], // an agent pushes branches with write
  ] as const)("ignores %s's bosun:ready, whatever the event's payload says: no snapshot, nothing queued", async (_who, role) => {
    f = await schedulerFixture(CONFIG);
    f.fake.setFile(REPO, "main", ".github/bosun.yml", CONFIG);
    f.fake.addToken("t-someone", "someone", { permissions: { [REPO]: role } });
    const body = "```yaml\ngoal: x\nconstraints: {paths: [src/**]}\nacceptance: {command: npm test}\nsize_cap: 5\n```\n";
    const issue = f.fake.addIssue(REPO, { title: "sneaky", body, user: "tia" });
    await createTestOctokit(f.fake.url, "t-someone").issues.addLabels({ owner: "acme", repo: "app", issue_number: issue.number, labels: ["bosun:ready"] });
    // The approval is read from GitHub's events, never from the payload that triggered the run.
    const io = await run(f, "issues", { action: "labeled", label: { name: "bosun:ready" }, sender: { login: "mona" }, issue: { number: issue.number, body } });
    expect(io.failures).toEqual([]);
    expect(f.commentsOf(issue.number)).toEqual([]);
    expect(f.labelsOf(issue.number)).toEqual(["bosun:ready"]);
    expect(f.runsOf(issue.number)).toEqual([]);
  });
});
