/** Request accounting: per endpoint, per kind, 304s apart, a queryable log, reset. */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createFakeGitHub, type FakeGitHub } from "./create-fake-github.js";
import { createTestOctokit } from "./test-octokit.js";

describe("accounting", () => {
  let fake: FakeGitHub;
  const repo = { owner: "acme", repo: "app" };
  beforeAll(async () => {
    fake = await createFakeGitHub();
    fake.addRepo({ fullName: "acme/app" });
    fake.addToken("t", "mona", { permissions: { "acme/app": "write" } });
  });
  afterAll(async () => {
    await fake.close();
  });

  test("counts reads, writes, content-creating requests and free 304s, per endpoint", async () => {
    fake.accounting.reset();
    const o = createTestOctokit(fake.url, "t");
    const { data: issue } = await o.issues.create({ ...repo, title: "x" });
    await o.issues.addLabels({ ...repo, issue_number: issue.number, labels: ["bosun:queued"] });
    await o.issues.createComment({ ...repo, issue_number: issue.number, body: "snapshot" });
    const list = await o.issues.listForRepo({ ...repo, labels: "bosun:queued" });
    await o.issues.listForRepo({ ...repo, labels: "bosun:queued", headers: { "if-none-match": list.headers.etag } }).catch(() => undefined);
    await o.request("GET /nope").catch(() => undefined);
    const c = fake.accounting.counters();
    expect(c).toMatchObject({ total: 6, read: 2, write: 3, contentCreating: 2, notModified: 1 });
    expect(c.byEndpoint).toMatchObject({
      "POST /repos/{owner}/{repo}/issues": 1,
      "POST /repos/{owner}/{repo}/issues/{issue_number}/labels": 1,
      "POST /repos/{owner}/{repo}/issues/{issue_number}/comments": 1,
      "GET /repos/{owner}/{repo}/issues": 2,
      "GET (unknown)": 1,
    });
    expect(c.byStatus).toMatchObject({ "200": 2, "201": 2, "304": 1, "404": 1 });
  });

  test("the log records method, path, route, status, login and time, and can be filtered and reset", async () => {
    fake.accounting.reset();
    fake.clock.now();
    await createTestOctokit(fake.url, "t").repos.get(repo);
    expect(fake.accounting.log).toEqual([
      { seq: expect.any(Number), method: "GET", path: "/repos/acme/app", route: "GET /repos/{owner}/{repo}", kind: "read", status: 200, login: "mona", time: Date.UTC(2026, 0, 1), fault: null },
    ]);
    expect(fake.accounting.count({ login: "mona", kind: "read" })).toBe(1);
    expect(fake.accounting.count((e) => e.status >= 400)).toBe(0);
    fake.accounting.reset();
    expect(fake.accounting.counters().total).toBe(0);
  });

  test("unknown routes answer 404 with GitHub's error shape", async () => {
    const res = await fetch(`${fake.url}/repos/acme/app/frobnicate`, { headers: { authorization: "token t" } });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ message: "Not Found", documentation_url: "https://docs.github.com/rest" });
  });
});
