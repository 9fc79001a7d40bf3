import { afterEach, describe, expect, it } from "vitest";
import { createFakeGitHub, type FakeGitHub } from "./create-fake-github.js";
import { createResponseValidator } from "./openapi/create-response-validator.js";
import { createTestOctokit } from "./test-octokit.js";

let fake: FakeGitHub | undefined;
afterEach(async () => fake?.close());

describe("commit ranges", () => {
  it("compares base...head like GitHub (commits only in head, oldest first) and finds the pull requests of a commit", async () => {
    fake = await createFakeGitHub({ seed: 3 });
    fake.addRepo({ fullName: "acme/app" });
    fake.addToken("t", "mona", { permissions: { "acme/app": "write" } });
    const base = fake.commit("acme/app", "main", "base").sha;
    const one = fake.commit("acme/app", "main", "one").sha;
    const two = fake.commit("acme/app", "main", "two").sha;
    const pull = fake.addPull("acme/app", { title: "two things", commitCount: 1 });
    const octokit = createTestOctokit(fake.url, "t");
    const validator = createResponseValidator();
    validator.attach(octokit);

    const { data } = await octokit.rest.repos.compareCommitsWithBasehead({ owner: "acme", repo: "app", basehead: `${base}...main` });
    expect(data.total_commits).toBe(2);
    expect(data.commits.map((c) => c.sha)).toEqual([one, two]);
    expect(data.status).toBe("ahead");
    expect(data.merge_base_commit.sha).toBe(base);

    const headSha = fake.repo("acme/app").pulls.get(pull.number)?.headSha as string;
    const pulls = await octokit.rest.repos.listPullRequestsAssociatedWithCommit({ owner: "acme", repo: "app", commit_sha: headSha });
    expect(pulls.data.map((p) => p.number)).toEqual([pull.number]);
    expect(validator.violations).toEqual([]);
  });
});
