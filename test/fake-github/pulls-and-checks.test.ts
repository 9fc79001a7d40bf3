/** GitHub's limits the gate depends on: 3,000 files, missing patches, 250 commits, 50 annotations. */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createFakeGitHub, type FakeGitHub } from "./create-fake-github.js";
import type { PullFileRecord } from "./state.js";
import { createTestOctokit } from "./test-octokit.js";

describe("pull requests and check runs", () => {
  let fake: FakeGitHub;
  const repo = { owner: "acme", repo: "app" };
  beforeAll(async () => {
    fake = await createFakeGitHub();
    fake.addRepo({ fullName: "acme/app" });
    fake.addToken("t-bot", "github-actions[bot]", { permissions: { "acme/app": "write" } });
    fake.addToken("t-author", "ada", { permissions: { "acme/app": "write" } });
    fake.addToken("t-reviewer", "rex", { permissions: { "acme/app": "write" } });
  });
  afterAll(async () => {
    await fake.close();
  });

  test("a pull request reports its totals, head, base and author", async () => {
    const pull = fake.addPull("acme/app", {
      user: "ada",
      head: "feat",
      files: [
        { filename: "src/a.ts", status: "modified", additions: 3, deletions: 1, patch: "@@ -1 +1,3 @@" },
        { filename: "img.png", status: "added", additions: 0, deletions: 0 },
      ],
    });
    const { data } = await createTestOctokit(fake.url, "t-bot").pulls.get({ ...repo, pull_number: pull.number });
    expect(data).toMatchObject({ additions: 3, deletions: 1, changed_files: 2, commits: 1, user: { login: "ada" }, head: { ref: "feat", sha: pull.headSha }, base: { ref: "main" } });
    const files = await createTestOctokit(fake.url, "t-bot").pulls.listFiles({ ...repo, pull_number: pull.number });
    expect(files.data[0]?.patch).toBe("@@ -1 +1,3 @@");
    expect(files.data[1]).not.toHaveProperty("patch");
  });

  test("listFiles stops at 3,000 files while the pull request still counts them all", async () => {
    const files: PullFileRecord[] = Array.from({ length: 3500 }, (_, i) => ({ filename: `f/${i}.txt`, status: "added", additions: 1, deletions: 0, patch: "+x" }));
    const pull = fake.addPull("acme/app", { files });
    const o = createTestOctokit(fake.url, "t-bot");
    const listed = await o.paginate(o.pulls.listFiles, { ...repo, pull_number: pull.number, per_page: 100 });
    expect(listed).toHaveLength(3000);
    expect((await o.pulls.get({ ...repo, pull_number: pull.number })).data.changed_files).toBe(3500);
    const page30 = await o.pulls.listFiles({ ...repo, pull_number: pull.number, per_page: 100, page: 30 });
    expect(page30.data).toHaveLength(100);
    expect(page30.headers.link ?? "").not.toMatch(/rel="next"/);
    const page31 = await o.pulls.listFiles({ ...repo, pull_number: pull.number, per_page: 100, page: 31 });
    expect(page31.data).toHaveLength(0);
  });

  test("totals can disagree with the files, as past ~20,000 lines on GitHub", async () => {
    const pull = fake.addPull("acme/app", { files: [{ filename: "big.sql", status: "modified", additions: 0, deletions: 0 }], totals: { additions: 25_000, deletions: 10 } });
    const { data } = await createTestOctokit(fake.url, "t-bot").pulls.get({ ...repo, pull_number: pull.number });
    expect([data.additions, data.deletions, data.changed_files]).toEqual([25_000, 10, 1]);
  });

  test("commits of a pull request paginate and stop at 250", async () => {
    const pull = fake.addPull("acme/app", { commitCount: 260 });
    const o = createTestOctokit(fake.url, "t-bot");
    const commits = await o.paginate(o.pulls.listCommits, { ...repo, pull_number: pull.number, per_page: 100 });
    expect(commits).toHaveLength(250);
    expect(commits[0]?.parents[0]?.sha).toBe(pull.baseSha);
  });

  test("reviews: an author cannot approve their own pull request; another writer can", async () => {
    const pull = fake.addPull("acme/app", { user: "ada" });
    await expect(createTestOctokit(fake.url, "t-author").pulls.createReview({ ...repo, pull_number: pull.number, event: "APPROVE" })).rejects.toMatchObject({ status: 422 });
    await createTestOctokit(fake.url, "t-reviewer").pulls.createReview({ ...repo, pull_number: pull.number, event: "APPROVE" });
    const { data } = await createTestOctokit(fake.url, "t-bot").pulls.listReviews({ ...repo, pull_number: pull.number });
    expect(data.map((r) => [r.user?.login, r.state, r.commit_id])).toEqual([["rex", "APPROVED", pull.headSha]]);
  });

  test("a check run takes 50 annotations per request, not 51; updates add more", async () => {
    const o = createTestOctokit(fake.url, "t-bot");
    const head = fake.repo("acme/app").refs.get("refs/heads/main") ?? "";
    const annotations = (n: number) => Array.from({ length: n }, (_, i) => ({ path: "a.ts", start_line: i + 1, end_line: i + 1, annotation_level: "warning" as const, message: `m${i}` }));
    await expect(o.checks.create({ ...repo, name: "gate", head_sha: head, output: { title: "t", summary: "s", annotations: annotations(51) } })).rejects.toMatchObject({ status: 422 });
    const created = await o.checks.create({ ...repo, name: "gate", head_sha: head, status: "in_progress", output: { title: "t", summary: "s", annotations: annotations(50) } });
    const updated = await o.checks.update({ ...repo, check_run_id: created.data.id, conclusion: "failure", output: { title: "t", summary: "s", annotations: annotations(50) } });
    expect(updated.data).toMatchObject({ status: "completed", conclusion: "failure", output: { annotations_count: 100 } });
    await expect(o.checks.update({ ...repo, check_run_id: created.data.id, output: { title: "t", summary: "x".repeat(65_536) } })).rejects.toMatchObject({ status: 422 });
    const listed = await o.checks.listForRef({ ...repo, ref: head });
    expect(listed.data.check_runs.map((r) => r.id)).toContain(created.data.id);
  });
});
