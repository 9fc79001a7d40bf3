/** Tokens, identities and permissions: the collaborator permission endpoint and 403 on writes. */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createFakeGitHub, type FakeGitHub } from "./create-fake-github.js";
import { createTestOctokit } from "./test-octokit.js";

describe("permissions", () => {
  let fake: FakeGitHub;
  let base: string;
  beforeAll(async () => {
    fake = await createFakeGitHub();
    fake.addRepo({ fullName: "acme/app" });
    fake.addRepo({ fullName: "acme/secret", private: true });
    fake.addToken("t-admin", "acme");
    fake.addToken("t-maintain", "maya", { permissions: { "acme/app": "maintain" } });
    fake.addToken("t-write", "wren", { permissions: { "acme/app": "write" } });
    fake.addToken("t-triage", "tia", { permissions: { "acme/app": "triage" } });
    fake.addToken("t-read", "reed", { permissions: { "acme/app": "read" } });
    fake.addToken("t-actions", "github-actions[bot]", { permissions: { "acme/app": "write" } });
    base = fake.repo("acme/app").refs.get("refs/heads/main") ?? "";
  });
  afterAll(async () => {
    await fake.close();
  });

  test.each([
    ["acme", "admin", "admin"],
    ["maya", "write", "maintain"],
    ["wren", "write", "write"],
    ["tia", "read", "triage"],
    ["reed", "read", "read"],
  ])("the permission endpoint reports %s as %s (role %s)", async (login, permission, role) => {
    const { data } = await createTestOctokit(fake.url, "t-read").repos.getCollaboratorPermissionLevel({ owner: "acme", repo: "app", username: login });
    expect(data.permission).toBe(permission);
    expect(data.role_name).toBe(role);
    expect(data.user?.login).toBe(login);
  });

  test("an unknown login is 404 on the permission endpoint", async () => {
    await expect(createTestOctokit(fake.url, "t-write").repos.getCollaboratorPermissionLevel({ owner: "acme", repo: "app", username: "nobody-at-all" })).rejects.toMatchObject({ status: 404 });
  });

  test.each([
    ["read", "t-read", 403],
    ["triage", "t-triage", 403],
    ["write", "t-write", 201],
    ["github-actions[bot] with write", "t-actions", 201],
  ])("creating a ref with a %s token answers %i", async (_name, token, status) => {
    const o = createTestOctokit(fake.url, token);
    const result = await o.git.createRef({ owner: "acme", repo: "app", ref: `refs/perm/${token}`, sha: base }).then((r) => r.status, (e: { status: number }) => e.status);
    expect(result).toBe(status);
  });

  test("triage may label and close issues; read may only open issues and comment", async () => {
    const reader = createTestOctokit(fake.url, "t-read");
    const triager = createTestOctokit(fake.url, "t-triage");
    const { data: issue } = await reader.issues.create({ owner: "acme", repo: "app", title: "from a reader", labels: ["bosun:ready"] });
    expect(issue.labels).toEqual([]); // GitHub drops labels silently for those who cannot triage
    await reader.issues.createComment({ owner: "acme", repo: "app", issue_number: issue.number, body: "hi" });
    await expect(reader.issues.addLabels({ owner: "acme", repo: "app", issue_number: issue.number, labels: ["x"] })).rejects.toMatchObject({
      status: 403,
      response: { data: { message: "Resource not accessible by personal access token" } },
    });
    await triager.issues.addLabels({ owner: "acme", repo: "app", issue_number: issue.number, labels: ["x"] });
    const closed = await triager.issues.update({ owner: "acme", repo: "app", issue_number: issue.number, state: "closed" });
    expect(closed.data.state).toBe("closed");
  });

  test("a private repository is 404 to those without access, 401 without a token; a bad token is 401", async () => {
    await expect(createTestOctokit(fake.url, "t-write").repos.get({ owner: "acme", repo: "secret" })).rejects.toMatchObject({ status: 404 });
    await expect(createTestOctokit(fake.url, undefined).repos.get({ owner: "acme", repo: "secret" })).rejects.toMatchObject({ status: 404 });
    await expect(createTestOctokit(fake.url, undefined).issues.create({ owner: "acme", repo: "app", title: "x" })).rejects.toMatchObject({ status: 401 });
    await expect(createTestOctokit(fake.url, "no-such-token").repos.get({ owner: "acme", repo: "app" })).rejects.toMatchObject({ status: 401, response: { data: { message: "Bad credentials" } } });
    expect((await createTestOctokit(fake.url, "t-admin").repos.get({ owner: "acme", repo: "secret" })).status).toBe(200);
  });

  test("Bearer and token schemes both authenticate", async () => {
    const viaBearer = await fetch(`${fake.url}/repos/acme/secret`, { headers: { authorization: "Bearer t-admin" } });
    const viaToken = await fetch(`${fake.url}/repos/acme/secret`, { headers: { authorization: "token t-admin" } });
    expect([viaBearer.status, viaToken.status]).toEqual([200, 200]);
  });

  test("check runs need a GitHub App identity: a user token is 403", async () => {
    const user = createTestOctokit(fake.url, "t-write");
    const bot = createTestOctokit(fake.url, "t-actions");
    await expect(user.checks.create({ owner: "acme", repo: "app", name: "gate", head_sha: base })).rejects.toMatchObject({ status: 403 });
    expect((await bot.checks.create({ owner: "acme", repo: "app", name: "gate", head_sha: base })).status).toBe(201);
  });
});
