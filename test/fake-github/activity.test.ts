/** GitHub's record of pushes: who moved which branch, by every API that writes a branch, paged by cursor. */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createFakeGitHub, type FakeGitHub } from "./create-fake-github.js";
import { createTestOctokit } from "./test-octokit.js";

const repo = { owner: "acme", repo: "app" };
let fake: FakeGitHub;
beforeEach(async () => {
  fake = await createFakeGitHub();
  fake.addRepo({ fullName: "acme/app" });
  for (const login of ["mona", "rex"]) fake.addToken(`t-${login}`, login, { permissions: { "acme/app": "write" } });
});
afterEach(async () => fake.close());

describe("the repository activity list", () => {
  it("records branch creations, pushes, force pushes and deletions with their actor, newest first", async () => {
    const mona = createTestOctokit(fake.url, "t-mona");
    const rex = createTestOctokit(fake.url, "t-rex");
    const main = fake.repo("acme/app").refs.get("refs/heads/main") ?? "";
    const tree = (await mona.git.getCommit({ ...repo, commit_sha: main })).data.tree.sha;
    const child = (await mona.git.createCommit({ ...repo, message: "a", tree, parents: [main] })).data.sha;
    const other = (await mona.git.createCommit({ ...repo, message: "b", tree, parents: [main] })).data.sha;
    await mona.git.createRef({ ...repo, ref: "refs/heads/topic", sha: main });
    await rex.git.updateRef({ ...repo, ref: "heads/topic", sha: child });
    await mona.git.updateRef({ ...repo, ref: "heads/topic", sha: other, force: true });
    await rex.git.deleteRef({ ...repo, ref: "heads/topic" });
    await mona.git.createRef({ ...repo, ref: "refs/bosun/claims/1", sha: main });
    fake.commit("acme/app", "main", "seeded", { "x.txt": "1" }, "seeder");
    const { data } = await mona.repos.listActivities({ ...repo, ref: "topic" });
    expect(data.map((a) => `${a.activity_type} by ${a.actor?.login ?? "?"}`)).toEqual(["branch_deletion by rex", "force_push by mona", "push by rex", "branch_creation by mona"]);
    expect(data[1]).toMatchObject({ ref: "refs/heads/topic", before: child, after: other });
    const onMain = await mona.repos.listActivities({ ...repo, ref: "refs/heads/main", activity_type: "push" });
    expect(onMain.data.map((a) => a.actor?.login)).toEqual(["seeder"]);
  });

  it("pages by cursor through the Link header, as Octokit's paginate follows it", async () => {
    for (let i = 0; i < 7; i++) fake.commit("acme/app", "main", `c${i}`, { [`f${i}`]: "x" }, i % 2 === 0 ? "mona" : "rex");
    const mona = createTestOctokit(fake.url, "t-mona");
    const all = await mona.paginate(mona.repos.listActivities, { ...repo, ref: "main", per_page: 3 });
    expect(all).toHaveLength(8);
    expect(new Set(all.map((a) => a.id)).size).toBe(8);
    const first = await mona.repos.listActivities({ ...repo, ref: "main", per_page: 3 });
    expect(first.headers.link).toMatch(/after=[^&>]+.*rel="next"/);
    const asc = await mona.paginate(mona.repos.listActivities, { ...repo, ref: "main", per_page: 3, direction: "asc" });
    expect(asc.map((a) => a.id)).toEqual([...all.map((a) => a.id)].reverse());
  });
});
