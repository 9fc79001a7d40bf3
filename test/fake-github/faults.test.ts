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
