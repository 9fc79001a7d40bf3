import { afterEach, describe, expect, it } from "vitest";
import { createOctokit } from "../../../src/adapters/github/create-octokit.js";
import type { FakeGitHub } from "../../fake-github/create-fake-github.js";
import { createFakeGitHub } from "../../fake-github/create-fake-github.js";
import { runBosun } from "../../support/run-bosun.js";

const silent = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };
let fake: FakeGitHub | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function start(): Promise<FakeGitHub> {
  fake = await createFakeGitHub({ seed: 17 });
  fake.addRepo({ fullName: "acme/app" });
  fake.addToken("t-mona", "mona", { permissions: { "acme/app": "write" } });
  return fake;
}

describe("Octokit with retry and throttling, as the CLI and the Action create it", () => {
  it("bosun trace github waits out a secondary rate limit instead of aborting (a real process)", async () => {
    const gh = await start();
    gh.faults.add({ kind: "secondary-rate-limit", retryAfter: 1, route: "GET /repos/{owner}/{repo}/issues", times: 1 });
    const run = await runBosun(["trace", "github", "--repo", "acme/app", "--base-url", gh.url], { cwd: process.cwd(), env: { GITHUB_TOKEN: "t-mona" } });
    expect(run.stderr).toContain("0 items from 0 issues");
    expect(run.code).toBe(0);
    // GitHub's side: the listing was refused once and answered on the second try.
    const listings = gh.accounting.log.filter((e) => e.route === "GET /repos/{owner}/{repo}/issues").map((e) => e.status);
    expect(listings).toEqual([403, 200]);
  });

  it("a write refused by the secondary limit is sent again and lands once", async () => {
    const gh = await start();
    const issue = gh.addIssue("acme/app", { title: "x" });
    gh.faults.add({ kind: "secondary-rate-limit", retryAfter: 1, route: "POST /repos/{owner}/{repo}/issues/{issue_number}/comments", times: 1 });
    const octokit = createOctokit({ auth: "t-mona", baseUrl: gh.url, log: silent });
    await octokit.rest.issues.createComment({ owner: "acme", repo: "app", issue_number: issue.number, body: "hello" });
    const comments = await octokit.rest.issues.listComments({ owner: "acme", repo: "app", issue_number: issue.number });
    expect(comments.data.map((c) => c.body)).toEqual(["hello"]);
  });

  it("a write that failed with a 5xx after applying is not sent again (no second comment)", async () => {
    const gh = await start();
    const issue = gh.addIssue("acme/app", { title: "x" });
    gh.faults.add({ kind: "error", status: 502, applied: true, route: "POST /repos/{owner}/{repo}/issues/{issue_number}/comments", times: 1 });
    const octokit = createOctokit({ auth: "t-mona", baseUrl: gh.url, log: silent });
    await expect(octokit.rest.issues.createComment({ owner: "acme", repo: "app", issue_number: issue.number, body: "once" })).rejects.toMatchObject({ status: 502 });
    const posts = gh.accounting.log.filter((e) => e.route === "POST /repos/{owner}/{repo}/issues/{issue_number}/comments");
    expect(posts).toHaveLength(1);
    const comments = await octokit.rest.issues.listComments({ owner: "acme", repo: "app", issue_number: issue.number });
    expect(comments.data.map((c) => c.body)).toEqual(["once"]);
  });

  it("a read that failed with a 5xx is retried", async () => {
    const gh = await start();
    gh.faults.add({ kind: "error", status: 503, route: "GET /repos/{owner}/{repo}", times: 1 });
    const octokit = createOctokit({ auth: "t-mona", baseUrl: gh.url, log: silent });
    const { data } = await octokit.rest.repos.get({ owner: "acme", repo: "app" });
    expect(data.full_name).toBe("acme/app");
    expect(gh.accounting.log.filter((e) => e.route === "GET /repos/{owner}/{repo}").map((e) => e.status)).toEqual([503, 200]);
  });
});
