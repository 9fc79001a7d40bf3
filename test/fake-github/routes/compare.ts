/** Commit ranges: `compare/{base}...{head}` and the pull requests a commit belongs to (deploy verification reads both). */
import { notFound } from "../http-error.js";
import { resolveCommitish } from "../git-objects.js";
import type { Route, RouteContext } from "../route.js";
import { between, mergeBase } from "../git-graph.js";
import type { FakeState } from "../state.js";
import { commitJson, pullJson } from "../to-json-pull.js";
import { repoHtmlUrl, repoUrl } from "../to-json-user-repo.js";

function compare(state: FakeState, ctx: RouteContext) {
  const [baseRef = "", headRef = ""] = (ctx.params.basehead ?? "").split("...");
  const base = resolveCommitish(ctx.repo, baseRef);
  const head = resolveCommitish(ctx.repo, headRef);
  if (base === undefined || head === undefined) throw notFound();
  const ahead = between(ctx.repo, base, head);
  const behind = between(ctx.repo, head, base);
  const commitOf = (sha: string) => commitJson(state, ctx.repo, ctx.repo.commits.get(sha) as NonNullable<ReturnType<typeof ctx.repo.commits.get>>);
  const common = mergeBase(ctx.repo, base, head) ?? base;
  const url = `${repoUrl(state, ctx.repo)}/compare/${baseRef}...${headRef}`;
  const html = `${repoHtmlUrl(state, ctx.repo)}/compare/${baseRef}...${headRef}`;
  return {
    status: 200,
    body: {
      url,
      html_url: html,
      permalink_url: `${repoHtmlUrl(state, ctx.repo)}/compare/${base}...${head}`,
      diff_url: `${html}.diff`,
      patch_url: `${html}.patch`,
      base_commit: commitOf(base),
      merge_base_commit: commitOf(common),
      status: ahead.length === 0 && behind.length === 0 ? "identical" : behind.length === 0 ? "ahead" : ahead.length === 0 ? "behind" : "diverged",
      ahead_by: ahead.length,
      behind_by: behind.length,
      total_commits: ahead.length,
      // GitHub paginates the commits of a comparison with page/per_page (changelog 2021-03-22);
      // without them it answers the first 250.
      commits: pageOf(ahead, ctx.query).map(commitOf),
      files: [],
    },
  };
}

function pageOf<T>(all: readonly T[], query: URLSearchParams): T[] {
  if (!query.has("page") && !query.has("per_page")) return all.slice(0, 250);
  const perPage = Math.min(100, Math.max(1, Number(query.get("per_page") ?? 30)));
  const page = Math.max(1, Number(query.get("page") ?? 1));
  return all.slice((page - 1) * perPage, page * perPage);
}

function pullsOfCommit(state: FakeState, ctx: RouteContext) {
  const sha = ctx.params.commit_sha ?? "";
  if (!ctx.repo.commits.has(sha)) throw notFound();
  // GitHub lists a merged pull request for its merge commit too ("List pull requests associated with a commit").
  const pulls = [...ctx.repo.pulls.values()].filter((p) => p.commits.includes(sha) || p.headSha === sha || p.mergeCommitSha === sha);
  return { status: 200, body: pulls.map((p) => pullJson(state, ctx.repo, p)) };
}

export const compareRoutes: Route[] = [
  { method: "GET", pattern: "/repos/{owner}/{repo}/compare/{basehead}", kind: "read", handler: compare },
  { method: "GET", pattern: "/repos/{owner}/{repo}/commits/{commit_sha}/pulls", kind: "read", handler: pullsOfCommit },
];
