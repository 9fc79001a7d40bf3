/**
 * Pull requests that follow git (files, pushes, the test merge commit), the merge route with its
 * required checks, and installation tokens held to the permissions they were minted with.
 */
import { afterEach, describe, expect, test } from "vitest";
import { createFakeGitHub, type FakeGitHub } from "./create-fake-github.js";
import { createTestOctokit } from "./test-octokit.js";

const repo = { owner: "acme", repo: "app" } as const;
let fake: FakeGitHub;
afterEach(async () => fake.close());

async function world() {
  fake = await createFakeGitHub();
  fake.addRepo({ fullName: "acme/app", files: { "src/a.ts": "one\ntwo\nthree\n", "README.md": "# app\n" } });
  fake.addInstallation({ id: 7, appId: 42, appSlug: "bosun", repos: ["acme/app"] });
  fake.addToken("t-mona", "mona", { permissions: { "acme/app": "write" } });
  fake.addToken("t-rex", "rex", { permissions: { "acme/app": "write" } });
  const jwt = `x.${Buffer.from(JSON.stringify({ iss: "Iv1.42" })).toString("base64url")}.sig`;
  const mona = createTestOctokit(fake.url, "t-mona");
  const appToken = async (permissions?: Record<string, "read" | "write">) => (await createTestOctokit(fake.url, jwt).apps.createInstallationAccessToken({ installation_id: 7, ...(permissions === undefined ? {} : { permissions }) })).data.token;
  const issue = fake.addIssue("acme/app", { title: "Do it", user: "tia" });
  fake.commit("acme/app", "feature", "work", {});
  fake.setRef("acme/app", "feature", fake.repo("acme/app").refs.get("refs/heads/main") as string);
  fake.commit("acme/app", "feature", "change a", { "src/a.ts": "one\n2\nthree\n", "src/b.ts": "new\n" });
  const { data: pull } = await mona.pulls.create({ ...repo, head: "feature", base: "main", title: "Change a", body: `Fixes #${issue.number}` });
  return { mona, appToken, issue, pull };
}

describe("pull requests follow git", () => {
  test("files and patches come from the merge base; a push moves the head and sends synchronize; refs/pull/<n>/merge is the test merge commit", async () => {
    const { mona, pull } = await world();
    fake.webhooks.register({ url: "http://127.0.0.1:9/none", secret: "s", events: ["pull_request"] });
    const { data: files } = await mona.pulls.listFiles({ ...repo, pull_number: pull.number });
    expect(files.map((f) => [f.filename, f.status, f.additions, f.deletions])).toEqual([["src/a.ts", "modified", 1, 1], ["src/b.ts", "added", 1, 0]]);
    expect(files[0]?.patch).toBe("@@ -1,3 +1,3 @@\n one\n-two\n+2\n three");
    const r = fake.repo("acme/app");
    const merge = r.commits.get(r.refs.get(`refs/pull/${pull.number}/merge`) ?? "");
    expect(merge?.parents).toEqual([r.refs.get("refs/heads/main"), pull.head.sha]);
    expect(r.trees.get(merge?.tree ?? "")?.get("src/b.ts")).toBe("new\n");

    const { data: head } = await mona.git.getCommit({ ...repo, commit_sha: pull.head.sha });
    const { data: tree } = await mona.git.createTree({ ...repo, base_tree: head.tree.sha, tree: [{ path: "src/c.ts", mode: "100644", type: "blob", content: "c\n" }] });
    const { data: next } = await mona.git.createCommit({ ...repo, message: "more", tree: tree.sha, parents: [pull.head.sha] });
    await mona.git.updateRef({ ...repo, ref: "heads/feature", sha: next.sha });
    const { data: moved } = await mona.pulls.get({ ...repo, pull_number: pull.number });
    expect(moved.head.sha).toBe(next.sha);
    expect(moved.changed_files).toBe(3);
    expect(moved.commits).toBe(2);
    expect(fake.webhooks.deliveries.filter((d) => d.event === "pull_request").map((d) => `${d.action} ${String((d.payload["pull_request"] as { head: { sha: string } }).head.sha)}`)).toEqual([`synchronize ${next.sha}`]);
  });
});

describe("merging", () => {
  test("is refused while a required check bound to the app is missing, failing, or reported by someone else; the app's success or neutral satisfies it", async () => {
    const { mona, appToken, pull } = await world();
    fake.requireChecks("acme/app", "main", [{ context: "bosun/gate", appId: 42 }, { context: "bosun/separation", appId: 42 }]);
    const merge = () => mona.pulls.merge({ ...repo, pull_number: pull.number }).then(() => "merged", (e: { status: number; response?: { data?: { message?: string } } }) => `${e.status} ${e.response?.data?.message ?? ""}`);
    expect(await merge()).toBe('405 Required status check "bosun/gate" is expected.');
    // Anyone with write access can post a status of that name: it does not count for a check bound to the app.
    await mona.repos.createCommitStatus({ ...repo, sha: pull.head.sha, state: "success", context: "bosun/gate" });
    expect(await merge()).toBe('405 Required status check "bosun/gate" is expected.');
    const bot = createTestOctokit(fake.url, await appToken());
    const { data: run } = await bot.checks.create({ ...repo, name: "bosun/gate", head_sha: pull.head.sha, status: "completed", conclusion: "failure" });
    expect(await merge()).toBe('405 Required status check "bosun/gate" is failing.');
    await bot.checks.update({ ...repo, check_run_id: run.id, conclusion: "neutral" });
    expect(await merge()).toBe('405 Required status check "bosun/separation" is expected.');
    await bot.repos.createCommitStatus({ ...repo, sha: pull.head.sha, state: "success", context: "bosun/separation" });
    expect(await mona.pulls.merge({ ...repo, pull_number: pull.number, sha: "0".repeat(40) }).catch((e: { status: number }) => e.status)).toBe(409);
    expect(await merge()).toBe("merged");
  });

  test("a merge writes a merge commit on the base, marks the pull request merged and closes the issue it names, with the webhooks GitHub sends", async () => {
    const { mona, issue, pull } = await world();
    fake.webhooks.register({ url: "http://127.0.0.1:9/none", secret: "s" });
    const before = fake.repo("acme/app").refs.get("refs/heads/main");
    const { data } = await mona.pulls.merge({ ...repo, pull_number: pull.number });
    const r = fake.repo("acme/app");
    expect(r.refs.get("refs/heads/main")).toBe(data.sha);
    expect(r.commits.get(data.sha)?.parents).toEqual([before, pull.head.sha]);
    const { data: merged } = await mona.pulls.get({ ...repo, pull_number: pull.number });
    expect(merged).toMatchObject({ merged: true, state: "closed", merge_commit_sha: data.sha, merged_by: { login: "mona" } });
    expect(r.issues.get(issue.number)).toMatchObject({ state: "closed", stateReason: "completed" });
    expect(fake.webhooks.deliveries.map((d) => `${d.event}.${d.action ?? ""}`).filter((e) => /closed|push/.test(e))).toEqual(["push.", "pull_request.closed", "issues.closed"]);
    expect(await mona.pulls.merge({ ...repo, pull_number: pull.number }).catch((e: { status: number }) => e.status)).toBe(405);
  });
});

describe("installation tokens with permissions", () => {
  test("a token minted with some permissions reads and writes only those; asking for more than the installation has is refused", async () => {
    const { appToken, issue } = await world();
    fake.repo("acme/app").private = true;
    const reader = createTestOctokit(fake.url, await appToken({ issues: "read" }));
    await reader.issues.get({ ...repo, issue_number: issue.number });
    await reader.repos.get(repo);
    const status = (p: Promise<unknown>) => p.then(() => 200, (e: { status: number }) => e.status);
    expect(await status(reader.issues.addLabels({ ...repo, issue_number: issue.number, labels: ["x"] }))).toBe(403);
    expect(await status(reader.repos.getContent({ ...repo, path: "README.md" }))).toBe(403);
    const writer = createTestOctokit(fake.url, await appToken({ contents: "write", issues: "write" }));
    expect(await status(writer.issues.addLabels({ ...repo, issue_number: issue.number, labels: ["x"] }))).toBe(200);
    expect(await status(writer.checks.create({ ...repo, name: "c", head_sha: fake.repo("acme/app").refs.get("refs/heads/main") as string }))).toBe(403);
    fake.addInstallation({ id: 8, appId: 43, appSlug: "reader", repos: ["acme/app"], permission: "read" });
    const jwt = `x.${Buffer.from(JSON.stringify({ iss: 43 })).toString("base64url")}.sig`;
    expect(await status(createTestOctokit(fake.url, jwt).apps.createInstallationAccessToken({ installation_id: 8, permissions: { issues: "write" } }))).toBe(422);
  });
});
