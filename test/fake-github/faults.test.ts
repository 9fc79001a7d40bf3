/** Faults on demand: latency, 5xx, secondary rate limit, spurious 422 on ref writes, stale reads. */
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { createManualClock, type ManualClock } from "./clock.js";
import { createFakeGitHub, type FakeGitHub } from "./create-fake-github.js";
import { createTestOctokit } from "./test-octokit.js";

const repo = { owner: "acme", repo: "app" };

describe("faults", () => {
  let fake: FakeGitHub;
  let clock: ManualClock;
  let base: string;
  beforeEach(async () => {
    clock = createManualClock();
    fake = await createFakeGitHub({ clock, seed: 42 });
    fake.addRepo({ fullName: "acme/app" });
    fake.addToken("t", "mona", { permissions: { "acme/app": "write" } });
    base = fake.repo("acme/app").refs.get("refs/heads/main") ?? "";
  });
  afterEach(async () => {
    await fake.close();
  });
  const o = () => createTestOctokit(fake.url, "t");
  const status = (p: Promise<{ status: number }>) => p.then((r) => r.status, (e: { status: number }) => e.status);

  test("a spurious 422 that applied: the ref exists though the client saw a failure; reading back tells", async () => {
    fake.faults.add({ kind: "spurious-422", applied: true, times: 1 });
    await expect(o().git.createRef({ ...repo, ref: "refs/bosun/claims/1", sha: base })).rejects.toMatchObject({ status: 422 });
    expect((await o().git.getRef({ ...repo, ref: "bosun/claims/1" })).data.object.sha).toBe(base);
    expect(fake.accounting.log.at(-2)?.fault).toBe("spurious-422");
  });

  test("a spurious 422 that did not apply leaves no ref", async () => {
    fake.faults.add({ kind: "spurious-422", applied: false, times: 1 });
    await expect(o().git.createRef({ ...repo, ref: "refs/bosun/claims/2", sha: base })).rejects.toMatchObject({ status: 422 });
    await expect(o().git.getRef({ ...repo, ref: "bosun/claims/2" })).rejects.toMatchObject({ status: 404 });
    expect(await status(o().git.createRef({ ...repo, ref: "refs/bosun/claims/2", sha: base }))).toBe(201);
  });

  test("a 5xx on one route leaves other routes alone and fires only `times` times", async () => {
    fake.faults.add({ kind: "error", status: 502, route: "GET /repos/{owner}/{repo}", times: 2 });
    expect(await status(o().repos.get(repo))).toBe(502);
    expect(await status(o().git.getRef({ ...repo, ref: "heads/main" }))).toBe(200);
    expect(await status(o().repos.get(repo))).toBe(502);
    expect(await status(o().repos.get(repo))).toBe(200);
  });

  test("secondary rate limit: 403 with retry-after and GitHub's message", async () => {
    fake.faults.add({ kind: "secondary-rate-limit", retryAfter: 7, route: /^POST /, times: 1 });
    const error = await o().issues.create({ ...repo, title: "x" }).catch((e: { status: number; response: { headers: Record<string, string>; data: { message: string } } }) => e);
    expect(error).toMatchObject({ status: 403, response: { headers: { "retry-after": "7" } } });
    expect((error as { response: { data: { message: string } } }).response.data.message).toMatch(/^You have exceeded a secondary rate limit/);
  });

  test("latency delays the response by the given real milliseconds", async () => {
    fake.faults.add({ kind: "latency", ms: 120, route: "GET /repos/{owner}/{repo}" });
    const started = performance.now();
    await o().repos.get(repo);
    expect(performance.now() - started).toBeGreaterThanOrEqual(110);
  });

  test("stale reads for N requests: the next GET after a write sees the previous version", async () => {
    fake.faults.add({ kind: "stale-read", requests: 2, route: "GET /repos/{owner}/{repo}/issues/{issue_number}" });
    const issue = fake.addIssue("acme/app", { title: "before" });
    await o().issues.update({ ...repo, issue_number: issue.number, title: "after" });
    const titles = [];
    for (let i = 0; i < 3; i++) titles.push((await o().issues.get({ ...repo, issue_number: issue.number })).data.title);
    expect(titles).toEqual(["before", "before", "after"]);
  });

  test("stale reads for N ms of the fake's clock: a ref just created is still missing", async () => {
    fake.faults.add({ kind: "stale-read", ms: 1000 });
    await o().git.createRef({ ...repo, ref: "refs/bosun/claims/9", sha: base });
    expect(await status(o().git.getRef({ ...repo, ref: "bosun/claims/9" }))).toBe(404);
    clock.advance(999);
    expect(await status(o().git.getRef({ ...repo, ref: "bosun/claims/9" }))).toBe(404);
    clock.advance(1);
    expect(await status(o().git.getRef({ ...repo, ref: "bosun/claims/9" }))).toBe(200);
  });

  test("lagging reads (lagMs): a GET sees the repository as it was that long ago, writes older than that show", async () => {
    fake.faults.add({ kind: "stale-read", lagMs: 5000, route: /^GET \/repos\/\{owner\}\/\{repo\}\/issues/ });
    const issue = fake.addIssue("acme/app", { title: "v0" });
    await o().issues.update({ ...repo, issue_number: issue.number, title: "v1" });
    clock.advance(3000);
    await o().issues.update({ ...repo, issue_number: issue.number, title: "v2" });
    const title = async () => (await o().issues.get({ ...repo, issue_number: issue.number })).data.title;
    expect(await title()).toBe("v0");
    clock.advance(2000); // v1 is now 5 s old: visible; v2 (2 s old) is not
    expect(await title()).toBe("v1");
    // A listing lags the same way: the label added 2 s ago is not there yet.
    await o().issues.addLabels({ ...repo, issue_number: issue.number, labels: ["bosun:ready"] });
    expect((await o().issues.listForRepo({ ...repo, labels: "bosun:ready" })).data).toEqual([]);
    clock.advance(5000);
    expect(await title()).toBe("v2");
    expect((await o().issues.listForRepo({ ...repo, labels: "bosun:ready" })).data.map((i) => i.number)).toEqual([issue.number]);
    // Reads of other routes are fresh.
    expect(fake.accounting.log.filter((e) => e.fault === "stale-read").length).toBe(3);
  });

  test("lagging GraphQL queries (a rule aimed at POST /graphql): every repository they read is that old; REST reads are fresh", async () => {
    fake.faults.add({ kind: "stale-read", lagMs: 5000, route: "POST /graphql" });
    const issue = fake.addIssue("acme/app", { title: "t", body: "v0" });
    await o().issues.update({ ...repo, issue_number: issue.number, body: "v1" });
    clock.advance(2000);
    const query = `query($n: Int!) { repository(owner: "acme", name: "app") { issue(number: $n) { body lastEditedAt } } }`;
    const read = async () => (await o().graphql<{ repository: { issue: { body: string; lastEditedAt: string | null } } }>(query, { n: issue.number })).repository.issue;
    expect(await read()).toEqual({ body: "v0", lastEditedAt: null });
    expect((await o().issues.get({ ...repo, issue_number: issue.number })).data.body).toBe("v1");
    clock.advance(3000);
    expect(await read()).toEqual({ body: "v1", lastEditedAt: "2026-01-01T00:00:00Z" });
    expect(fake.accounting.log.filter((e) => e.fault === "stale-read").map((e) => e.route)).toEqual(["POST /graphql"]);
  });

  test("a page shift: page 2 starts one record later, so one record is never listed (or, negative, one twice)", async () => {
    for (let i = 0; i < 5; i++) fake.addIssue("acme/app", { title: `i${i}` });
    const numbers = async () => {
      const out: number[] = [];
      for (let page = 1; page <= 3; page++) out.push(...(await o().issues.listForRepo({ ...repo, per_page: 2, page, sort: "created", direction: "asc" })).data.map((i) => i.number));
      return out;
    };
    const all = await numbers();
    expect(all).toHaveLength(5);
    // The list changed once, before page 2: every later page is shifted alike (two fires).
    const remove = fake.faults.add({ kind: "page-shift", times: 2 });
    const skipped = await numbers();
    expect(skipped).toEqual([all[0], all[1], all[3], all[4]]);
    remove();
    fake.faults.add({ kind: "page-shift", by: -1, times: 2 });
    expect(await numbers()).toEqual([all[0], all[1], all[1], all[2], all[3], all[4]]);
    expect(fake.faults.fired.filter((f) => f.kind === "page-shift")).toHaveLength(4);
  });

  test("a label write that applies and answers 502: the label is there though the client saw a failure", async () => {
    const issue = fake.addIssue("acme/app", { title: "x" });
    fake.faults.add({ kind: "error", status: 502, applied: true, route: /labels$/, times: 1 });
    await expect(o().issues.addLabels({ ...repo, issue_number: issue.number, labels: ["bosun:done"] })).rejects.toMatchObject({ status: 502 });
    expect(fake.repo("acme/app").issues.get(issue.number)?.labels).toEqual(["bosun:done"]);
  });

  test("the same seed fires the same faults in the same places", async () => {
    const run = async (seed: number) => {
      const f = await createFakeGitHub({ seed });
      f.addRepo({ fullName: "acme/app" });
      f.addToken("t", "mona", { permissions: { "acme/app": "write" } });
      f.faults.add({ kind: "error", status: 503, probability: 0.3 });
      const client = createTestOctokit(f.url, "t");
      const out: number[] = [];
      for (let i = 0; i < 30; i++) out.push(await status(client.repos.get(repo)));
      await f.close();
      return out;
    };
    const a = await run(7);
    expect(await run(7)).toEqual(a);
    expect(a.filter((s) => s === 503).length).toBeGreaterThan(0);
    expect(await run(8)).not.toEqual(a);
  });
});
