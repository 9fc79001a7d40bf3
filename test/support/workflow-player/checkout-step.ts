/**
 * `actions/checkout`: the repository at the requested ref (default: the event's GITHUB_SHA — for a
 * pull request the test merge commit) as a real git repository whose `git rev-parse HEAD` is the
 * fake's sha, one commit deep (`.git/shallow`), written object by object from the fake's store after
 * the token proved it can read the commit. Unless `persist-credentials: false`, the token stays in
 * `.git/config` the way checkout stores it: `http.<server>/.extraheader` = `AUTHORIZATION: basic
 * base64(x-access-token:TOKEN)`. Inputs besides repository, ref, token, path, persist-credentials
 * and fetch-depth (1 only) are refused.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { deflateSync } from "node:zlib";
import { commitBody, executablesOf, objectSha, resolveCommitish, treeObjects } from "../../fake-github/git-objects.js";
import { apiGet, failed, type StepContext, type StepOutcome } from "./step-context.js";

const KNOWN = new Set(["repository", "ref", "token", "path", "persist-credentials", "fetch-depth"]);
export const SERVER_URL = "https://github.com";

function writeObject(gitDir: string, type: "blob" | "tree" | "commit", body: Buffer): string {
  const sha = objectSha(type, body);
  const dir = join(gitDir, "objects", sha.slice(0, 2));
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, sha.slice(2)), deflateSync(Buffer.concat([Buffer.from(`${type} ${body.length}\0`), body])));
  return sha;
}

export async function checkoutStep(ctx: StepContext): Promise<StepOutcome> {
  const unknown = Object.keys(ctx.inputs).filter((k) => !KNOWN.has(k));
  if (unknown.length > 0) return failed(`actions/checkout: the player does not model input(s) ${unknown.join(", ")}`);
  const fullName = ctx.inputs["repository"] || ctx.run.fullName;
  if (fullName.toLowerCase() !== ctx.run.fullName.toLowerCase()) return failed(`actions/checkout: only the run's own repository ${ctx.run.fullName} is played, not ${fullName}`);
  if ((ctx.inputs["fetch-depth"] ?? "1") !== "1") return failed("actions/checkout: the player checks out one commit deep only (fetch-depth: 1)");
  const repo = ctx.run.repo;
  const ref = ctx.inputs["ref"] || ctx.run.sha;
  const sha = resolveCommitish(repo, ref);
  if (sha === undefined) return failed(`actions/checkout: a branch, tag or commit '${ref}' could not be found`);
  const token = ctx.inputs["token"] ?? ctx.githubToken;
  const access = await apiGet(ctx, `/repos/${repo.owner}/${repo.name}/commits/${sha}`, token);
  if (access.status !== 200) return failed(`actions/checkout: fetching ${sha} failed: ${access.status} ${String(access.body["message"] ?? "")}`);
  const commit = repo.commits.get(sha);
  if (commit === undefined) return failed(`actions/checkout: no commit ${sha}`);
  const dir = resolve(ctx.workspace, ctx.inputs["path"] ?? "");
  mkdirSync(dir, { recursive: true });
  const git = (...args: string[]) => execFileSync("git", args, { cwd: dir, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
  git("init", "-q");
  const gitDir = join(dir, ".git");
  const files = repo.trees.get(commit.tree) ?? new Map<string, string>();
  for (const content of files.values()) writeObject(gitDir, "blob", Buffer.from(content, "utf8"));
  for (const tree of treeObjects(files, executablesOf(repo, commit.tree))) writeObject(gitDir, "tree", tree.body);
  const written = writeObject(gitDir, "commit", commitBody(commit));
  if (written !== sha) return failed(`actions/checkout: the commit rebuilt from the fake's store is ${written}, not ${sha}: the fake's objects are not git's`);
  if (commit.parents.length > 0) writeFileSync(join(gitDir, "shallow"), `${sha}\n`);
  git("remote", "add", "origin", `${SERVER_URL}/${repo.owner}/${repo.name}`);
  if (ref.startsWith("refs/pull/")) git("update-ref", `refs/remotes/pull/${ref.split("/")[2] ?? ""}/merge`, sha);
  writeFileSync(join(gitDir, "HEAD"), `${sha}\n`);
  git("reset", "-q", "--hard");
  if ((ctx.inputs["persist-credentials"] ?? "true") !== "false") {
    git("config", "--local", `http.${SERVER_URL}/.extraheader`, `AUTHORIZATION: basic ${Buffer.from(`x-access-token:${token}`).toString("base64")}`);
  }
  const head = git("rev-parse", "HEAD");
  if (head !== sha) return failed(`actions/checkout: HEAD is ${head}, not ${sha}`);
  ctx.log(`checked out ${sha} (${ref}) into ${dir}`);
  return { ok: true, outputs: { ref, commit: sha } };
}
