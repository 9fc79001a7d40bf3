import { afterEach, describe, expect, it } from "vitest";
import schedule from "../../../src/action/modes/schedule.js";
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
    await f.queue("second", "priority: 2");
    const io = await run(f, "schedule");
    expect(io.failures).toEqual([]);
    expect(JSON.parse(io.outputs["report"] ?? "{}")).toMatchObject({ dispatched: [first], idle: false });
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

  it("lands an item from a writer's /bosun land comment and ignores a reader's", async () => {
    f = await schedulerFixture(CONFIG);
    f.fake.setFile(REPO, "main", ".github/bosun.yml", CONFIG);
    f.fake.setPermission(REPO, "mona", "write");
    f.fake.setPermission(REPO, "rando", "read");
    const n = await f.queue("by-hand");
    await run(f, "schedule");
    expect(f.labelsOf(n)).toContain("bosun:claimed");
    const reader = await run(f, "issue_comment", { comment: { body: "/bosun land ok looks fine to me", user: { login: "rando" } }, issue: { number: n } });
    expect(reader.logs).toContain("bosun land: ignored: the author has no write access");
    expect(f.labelsOf(n)).toContain("bosun:claimed");
    const stranger = await run(f, "issue_comment", { comment: { body: "/bosun land ok", user: { login: "nobody-here" } }, issue: { number: n } });
    expect(stranger.failures).toEqual([]);
    expect(stranger.logs).toContain("bosun land: ignored: the author has no write access");
    const writer = await run(f, "issue_comment", { comment: { body: "/bosun land refuse out of scope", user: { login: "mona" } }, issue: { number: n } });
    expect(writer.logs).toContain(`bosun land: landed #${n}: refuse`);
    expect(f.labelsOf(n)).toEqual(["bosun:needs-human", "bosun:ready"]);
  });
});

describe("the Action's schedule mode without a server", () => {
  it("takes a writer's bosun:ready through the intake, then dispatches it in the same run", async () => {
    f = await schedulerFixture(CONFIG);
    f.fake.setFile(REPO, "main", ".github/bosun.yml", CONFIG);
    f.fake.setPermission(REPO, "mona", "write");
    const body = "Please do this.\n\n```yaml\ngoal: Add a health endpoint.\nconstraints: {paths: [src/**]}\nacceptance: {command: npm test}\nsize_cap: 50\n```\n";
    const issue = f.fake.addIssue(REPO, { title: "health", body, labels: ["bosun:ready"] });
    const io = await run(f, "issues", { action: "labeled", label: { name: "bosun:ready" }, sender: { login: "mona" }, issue: { number: issue.number, body } });
    expect(io.failures).toEqual([]);
    const comments = [...f.fake.repo(REPO).comments.values()].filter((c) => c.issueNumber === issue.number);
    expect(comments.map((c) => c.user)).toEqual(["bosun[bot]"]);
    expect(f.labelsOf(issue.number)).toEqual(["bosun:claimed", "bosun:queued", "bosun:ready"]);
    expect(f.runsOf(issue.number)).toMatchObject([{ epoch: 1 }]);
  });

  it("ignores a reader's bosun:ready: no snapshot, nothing queued", async () => {
    f = await schedulerFixture(CONFIG);
    f.fake.setFile(REPO, "main", ".github/bosun.yml", CONFIG);
    f.fake.setPermission(REPO, "rando", "read");
    const body = "```yaml\ngoal: x\nconstraints: {paths: [src/**]}\nacceptance: {command: npm test}\nsize_cap: 5\n```\n";
    const issue = f.fake.addIssue(REPO, { title: "sneaky", body, labels: ["bosun:ready"] });
    await run(f, "issues", { action: "labeled", label: { name: "bosun:ready" }, sender: { login: "rando" }, issue: { number: issue.number, body } });
    expect([...f.fake.repo(REPO).comments.values()].filter((c) => c.issueNumber === issue.number)).toEqual([]);
    expect(f.labelsOf(issue.number)).toEqual(["bosun:ready"]);
  });
});
