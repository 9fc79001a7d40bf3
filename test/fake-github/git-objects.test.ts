/**
 * The fake's blob, tree and commit shas are git's own: rebuilt with git's plumbing (hash-object,
 * mktree, commit-tree with fixed dates) from what the fake serves, the same objects get the same ids.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { createFakeGitHub, type FakeGitHub } from "./create-fake-github.js";
import { createTestOctokit } from "./test-octokit.js";

let fake: FakeGitHub | undefined;
let dir: string | undefined;
afterEach(async () => {
  await fake?.close();
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

/** Writes a nested tree with git's plumbing and answers its sha. */
function mktree(git: (args: string[], input?: string) => string, files: ReadonlyMap<string, string>, executables: ReadonlySet<string>, prefix = ""): string {
  const lines: string[] = [];
  const dirs = new Set<string>();
  for (const [path, content] of files) {
    if (!path.startsWith(prefix)) continue;
    const rest = path.slice(prefix.length);
    const slash = rest.indexOf("/");
    if (slash >= 0) {
      dirs.add(rest.slice(0, slash));
      continue;
    }
    const blob = git(["hash-object", "-w", "--stdin"], content);
    lines.push(`${executables.has(path) ? "100755" : "100644"} blob ${blob}\t${rest}`);
  }
  for (const name of dirs) lines.push(`040000 tree ${mktree(git, files, executables, `${prefix}${name}/`)}\t${name}`);
  return git(["mktree"], lines.join("\n") + "\n");
}

describe("git objects", () => {
  test("a commit made through the API, with nested paths and an executable file, has the sha git gives the same commit", async () => {
    fake = await createFakeGitHub();
    const repo = fake.addRepo({ fullName: "acme/app", files: { "README.md": "# app\n", "scripts/run.sh": "#!/bin/sh\necho hi\n", "src/a/b.ts": "export {};\n", "src-x.ts": "x\n" }, executable: ["scripts/run.sh"] });
    const octokit = createTestOctokit(fake.url, "t");
    fake.addToken("t", "mona", { permissions: { "acme/app": "write" } });
    const main = repo.refs.get("refs/heads/main") as string;
    const { data: base } = await octokit.git.getCommit({ owner: "acme", repo: "app", commit_sha: main });
    const { data: tree } = await octokit.git.createTree({ owner: "acme", repo: "app", base_tree: base.tree.sha, tree: [{ path: "src/a/c.ts", mode: "100644", type: "blob", content: "export const c = 1;\n" }, { path: "bin/tool", mode: "100755", type: "blob", content: "#!/bin/sh\n" }] });
    const { data: commit } = await octokit.git.createCommit({ owner: "acme", repo: "app", message: "Add c\n\nwith a body\n", tree: tree.sha, parents: [main], author: { name: "Mona", email: "mona@example.com", date: "2026-03-04T05:06:07Z" } });

    dir = mkdtempSync(join(tmpdir(), "fake-git-objects-"));
    const env = { ...process.env, GIT_DIR: join(dir, ".git") };
    execFileSync("git", ["init", "-q", dir]);
    const git = (args: string[], input?: string, extra: Record<string, string> = {}) => execFileSync("git", args, { env: { ...env, ...extra }, input: input ?? "", encoding: "utf8" }).trim();
    const stored = fake.repo("acme/app");
    const treeOf = (sha: string) => {
      const t = stored.commits.get(sha)?.tree as string;
      return mktree(git, stored.trees.get(t) ?? new Map(), stored.executables.get(t) ?? new Set());
    };
    const rebuild = (sha: string): string => {
      const c = stored.commits.get(sha);
      if (c === undefined) throw new Error(`no commit ${sha}`);
      const parents = c.parents.flatMap((p) => ["-p", rebuild(p)]);
      return git(["commit-tree", treeOf(sha), ...parents], c.message, {
        GIT_AUTHOR_NAME: c.author.name,
        GIT_AUTHOR_EMAIL: c.author.email,
        GIT_AUTHOR_DATE: `${Date.parse(c.author.date) / 1000} +0000`,
        GIT_COMMITTER_NAME: c.committer.name,
        GIT_COMMITTER_EMAIL: c.committer.email,
        GIT_COMMITTER_DATE: `${Date.parse(c.committer.date) / 1000} +0000`,
      });
    };
    expect(treeOf(main)).toBe(base.tree.sha);
    expect(treeOf(commit.sha)).toBe(tree.sha);
    expect(rebuild(commit.sha)).toBe(commit.sha);
    expect(tree.tree.find((e) => e.path === "bin/tool")?.mode).toBe("100755");
    expect(tree.tree.find((e) => e.path === "scripts/run.sh")?.mode).toBe("100755");
  });
});
