/** Git commits (create with parents and tree checked; get) and `commits/{ref}`. */
import { notFound, validationFailed } from "../http-error.js";
import { EMPTY_TREE, putCommit, resolveCommitish } from "../git-objects.js";
import { optionalStringArray, requiredString } from "../read-body.js";
import type { Route, RouteContext } from "../route.js";
import type { FakeState } from "../state.js";
import { gitCommitJson } from "../to-json-git.js";
import { commitJson } from "../to-json-pull.js";

function person(value: unknown): { name: string; email: string; date?: string } | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if (typeof v.name !== "string" || typeof v.email !== "string") throw validationFailed("Invalid request.\n\nauthor needs name and email.");
  return typeof v.date === "string" ? { name: v.name, email: v.email, date: v.date } : { name: v.name, email: v.email };
}

function createCommit(state: FakeState, ctx: RouteContext) {
  const message = requiredString(ctx.body, "message");
  const tree = requiredString(ctx.body, "tree");
  const parents = optionalStringArray(ctx.body, "parents") ?? [];
  if (tree !== EMPTY_TREE && !ctx.repo.trees.has(tree)) throw validationFailed("Tree SHA does not exist");
  for (const parent of parents) {
    if (!ctx.repo.commits.has(parent)) throw validationFailed("Parent SHA does not exist or is not a commit object");
  }
  if (!ctx.repo.trees.has(tree)) ctx.repo.trees.set(tree, new Map());
  const custom = person(ctx.body.author) ?? person(ctx.body.committer);
  const author = person(ctx.body.author) ?? { name: ctx.login, email: `${ctx.login}@users.noreply.github.com` };
  const committer = person(ctx.body.committer) ?? author;
  const commit = putCommit(state, ctx.repo, { tree, parents, message, author, committer });
  // GitHub signs a bot's API commit only when it names no custom author or committer.
  if (custom === undefined && ctx.login.endsWith("[bot]") && commit.author.name === ctx.login) commit.signedFor = ctx.login;
  return { status: 201, body: gitCommitJson(state, ctx.repo, commit) };
}

function getGitCommit(state: FakeState, ctx: RouteContext) {
  const commit = ctx.repo.commits.get(ctx.params.commit_sha ?? "");
  if (commit === undefined) throw notFound();
  return { status: 200, body: gitCommitJson(state, ctx.repo, commit) };
}

function getCommit(state: FakeState, ctx: RouteContext) {
  const sha = resolveCommitish(ctx.repo, ctx.params.ref ?? "");
  const commit = sha === undefined ? undefined : ctx.repo.commits.get(sha);
  if (commit === undefined) throw validationFailed(`No commit found for SHA: ${ctx.params.ref ?? ""}`);
  return { status: 200, body: { ...commitJson(state, ctx.repo, commit), files: [], stats: { additions: 0, deletions: 0, total: 0 } } };
}

export const gitCommitRoutes: Route[] = [
  { method: "POST", pattern: "/repos/{owner}/{repo}/git/commits", kind: "create", access: "write", handler: createCommit },
  { method: "GET", pattern: "/repos/{owner}/{repo}/git/commits/{commit_sha}", kind: "read", handler: getGitCommit },
  { method: "GET", pattern: "/repos/{owner}/{repo}/commits/{ref}", kind: "read", handler: getCommit },
];
