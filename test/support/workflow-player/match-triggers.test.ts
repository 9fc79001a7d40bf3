/** Which workflows an event starts and which commit's file each reads, as a table over one repository. */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createFakeGitHub, type FakeGitHub } from "../../fake-github/create-fake-github.js";
import { createTestOctokit } from "../../fake-github/test-octokit.js";
import { matchTriggers } from "./match-triggers.js";

const wf = (name: string, on: string) => `name: ${name}\non:\n${on}\njobs:\n  j:\n    runs-on: ubuntu-latest\n    steps:\n      - run: "true"\n`;
const FILES = {
  ".github/workflows/pr.yml": wf("pr", "  pull_request:"),
  ".github/workflows/prt.yml": wf("prt", "  pull_request_target:\n    types: [opened, labeled]"),
  ".github/workflows/review.yml": wf("review", "  pull_request_review:\n    types: [submitted]"),
  ".github/workflows/comment.yml": wf("comment", "  issue_comment:\n    types: [created]"),
  ".github/workflows/after.yml": wf("after", '  workflow_run:\n    workflows: ["pr"]\n    types: [completed]'),
  ".github/workflows/deploy.yml": wf("deploy", "  deployment_status:"),
  ".github/workflows/push.yml": wf("push", "  push:\n    branches: [main]"),
};

describe("trigger rules", () => {
  let fake: FakeGitHub;
  let main: string;
  let merge: string;
  let head: string;
  let number: number;
  beforeAll(async () => {
    fake = await createFakeGitHub();
    fake.addRepo({ fullName: "acme/app", files: FILES });
    fake.addToken("t", "mona", { permissions: { "acme/app": "write" } });
    main = fake.repo("acme/app").refs.get("refs/heads/main") as string;
    fake.setRef("acme/app", "feature", main);
    // The PR's own version of pr.yml runs on pull_request; it also adds a workflow of its own.
    head = fake.commit("acme/app", "feature", "x", { ".github/workflows/pr.yml": wf("pr from the PR", "  pull_request:"), ".github/workflows/new.yml": wf("new", "  pull_request:") }).sha;
    const { data } = await createTestOctokit(fake.url, "t").pulls.create({ owner: "acme", repo: "app", head: "feature", base: "main", title: "x" });
    number = data.number;
    merge = fake.repo("acme/app").refs.get(`refs/pull/${number}/merge`) as string;
  });
  afterAll(async () => fake.close());

  const pr = () => ({ number, pull_request: { number, head: { ref: "feature", sha: head }, base: { ref: "main", sha: main } }, sender: { login: "mona" } });
  const cases: Array<[string, string, string | undefined, () => Record<string, unknown>, () => Array<[string, string, string]>]> = [
    ["pull_request opened: the PR's files at its merge commit", "pull_request", "opened", pr, () => [["new", merge, `refs/pull/${number}/merge`], ["pr from the PR", merge, `refs/pull/${number}/merge`]]],
    ["pull_request labeled: not a default type", "pull_request", "labeled", pr, () => []],
    ["pull_request_target labeled: the base branch's file", "pull_request_target", "labeled", pr, () => [["prt", main, "refs/heads/main"]]],
    ["pull_request_target synchronize: not in its types", "pull_request_target", "synchronize", pr, () => []],
    ["pull_request_review submitted: the merge commit's file", "pull_request_review", "submitted", pr, () => [["review", merge, `refs/pull/${number}/merge`]]],
    ["issue_comment created: the default branch", "issue_comment", "created", () => ({ issue: { number: 1 }, sender: { login: "mona" } }), () => [["comment", main, "refs/heads/main"]]],
    ["issue_comment by a job's GITHUB_TOKEN: nothing", "issue_comment", "created", () => ({ issue: { number: 1 }, sender: { login: "github-actions[bot]" } }), () => []],
    ["workflow_run completed of the named workflow", "workflow_run", "completed", () => ({ workflow: { name: "pr" }, workflow_run: { name: "pr" }, sender: { login: "mona" } }), () => [["after", main, "refs/heads/main"]]],
    ["workflow_run of another workflow", "workflow_run", "completed", () => ({ workflow: { name: "prt" }, workflow_run: { name: "prt" }, sender: { login: "mona" } }), () => []],
    ["deployment_status: the deployed commit's file", "deployment_status", "created", () => ({ deployment: { sha: main, ref: "main" }, deployment_status: { state: "success" }, sender: { login: "mona" } }), () => [["deploy", main, "refs/heads/main"]]],
    ["push to main", "push", undefined, () => ({ ref: "refs/heads/main", after: main, sender: { login: "mona" } }), () => [["push", main, "refs/heads/main"]]],
    ["push to another branch", "push", undefined, () => ({ ref: "refs/heads/feature", after: head, sender: { login: "mona" } }), () => []],
  ];
  test.each(cases)("%s", (_name, event, action, payload, expected) => {
    const runs = matchTriggers(fake.repo("acme/app"), event, action, payload());
    expect(runs.map((r) => [r.workflow.name, r.sha, r.ref])).toEqual(expected());
  });

  test("a pull request whose head conflicts with its base has no merge commit, and starts no pull_request run", async () => {
    fake.commit("acme/app", "main", "base moves", { ".github/workflows/pr.yml": wf("pr on main", "  pull_request:") });
    // Head and base both changed pr.yml differently since their merge base: a conflict.
    const { data } = await createTestOctokit(fake.url, "t").pulls.get({ owner: "acme", repo: "app", pull_number: number });
    expect(data.mergeable).toBe(false);
    expect(matchTriggers(fake.repo("acme/app"), "pull_request", "synchronize", pr())).toEqual([]);
  });
});
