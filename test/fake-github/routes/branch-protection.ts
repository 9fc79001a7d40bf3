/**
 * A branch, and its classic protection: get, update (PUT replaces it whole) and delete, as the REST
 * API documents them (https://docs.github.com/rest/branches/branch-protection,
 * https://docs.github.com/rest/branches/branches#get-a-branch). Only admins change or read the full
 * protection; anyone who can read the repository sees the branch's summary, `protection.required_status_checks`.
 */
import { HttpError, validationFailed } from "../http-error.js";
import type { Route, RouteContext } from "../route.js";
import { rulesetTargets } from "../ruleset-targets.js";
import { setupOf, type ProtectionRecord, type RequiredCheck } from "../setup-records.js";
import type { FakeState, RepoState } from "../state.js";
import { commitJson } from "../to-json-pull.js";
import { repoHtmlUrl, repoUrl } from "../to-json-user-repo.js";

const branchNotFound = () => new HttpError(404, "Branch not found");

function branchOf(ctx: RouteContext): { name: string; sha: string } {
  const name = ctx.params.branch ?? "";
  const sha = ctx.repo.refs.get(`refs/heads/${name}`);
  if (sha === undefined) throw branchNotFound();
  return { name, sha };
}

/** GitHub's `protected`: classic protection, or an active ruleset that targets the branch. */
export function isBranchProtected(repo: RepoState, branch: string): boolean {
  const setup = setupOf(repo);
  return setup.protection.has(branch) || [...setup.rulesets.values()].some((r) => r.enforcement === "active" && rulesetTargets(r, repo, branch));
}

function checksJson(checks: readonly RequiredCheck[]) {
  return { contexts: checks.map((c) => c.context), checks: checks.map((c) => ({ context: c.context, app_id: c.appId })) };
}

function protectionJson(state: FakeState, repo: RepoState, branch: string, p: ProtectionRecord): Record<string, unknown> {
  const url = `${repoUrl(state, repo)}/branches/${encodeURIComponent(branch)}/protection`;
  const json: Record<string, unknown> = {
    url,
    enforce_admins: { url: `${url}/enforce_admins`, enabled: p.enforceAdmins },
    required_linear_history: { enabled: p.requiredLinearHistory },
    allow_force_pushes: { enabled: p.allowForcePushes },
    allow_deletions: { enabled: p.allowDeletions },
  };
  if (p.requiredStatusChecks !== null) {
    json.required_status_checks = { url: `${url}/required_status_checks`, strict: p.requiredStatusChecks.strict, ...checksJson(p.requiredStatusChecks.checks), contexts_url: `${url}/required_status_checks/contexts` };
  }
  if (p.requiredPullRequestReviews !== null) {
    const r = p.requiredPullRequestReviews;
    json.required_pull_request_reviews = {
      url: `${url}/required_pull_request_reviews`,
      dismiss_stale_reviews: r.dismissStaleReviews,
      require_code_owner_reviews: r.requireCodeOwnerReviews,
      required_approving_review_count: r.requiredApprovingReviewCount,
      require_last_push_approval: r.requireLastPushApproval,
    };
  }
  return json;
}

function getBranch(state: FakeState, ctx: RouteContext) {
  const { name, sha } = branchOf(ctx);
  const commit = ctx.repo.commits.get(sha);
  const classic = setupOf(ctx.repo).protection.get(name);
  const checks = classic?.requiredStatusChecks?.checks ?? [];
  const url = `${repoUrl(state, ctx.repo)}/branches/${encodeURIComponent(name)}`;
  return {
    status: 200,
    body: {
      name,
      commit: commit === undefined ? { sha } : commitJson(state, ctx.repo, commit),
      _links: { self: url, html: `${repoHtmlUrl(state, ctx.repo)}/tree/${name}` },
      protected: isBranchProtected(ctx.repo, name),
      // The summary shows classic protection only; rulesets answer at GET .../rules/branches/{branch}.
      protection: {
        enabled: classic !== undefined,
        required_status_checks: { enforcement_level: classic?.requiredStatusChecks === undefined || classic.requiredStatusChecks === null ? "off" : classic.enforceAdmins ? "everyone" : "non_admins", ...checksJson(checks) },
      },
      protection_url: `${url}/protection`,
    },
  };
}

function getProtection(state: FakeState, ctx: RouteContext) {
  const { name } = branchOf(ctx);
  const p = setupOf(ctx.repo).protection.get(name);
  if (p === undefined) throw new HttpError(404, "Branch not protected");
  return { status: 200, body: protectionJson(state, ctx.repo, name, p) };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * A check's App: the given `app_id`; -1 for any source; omitted, the App that most recently posted
 * a check run of that name here, else any source — as the `checks[].app_id` field is documented.
 */
function sourceOf(repo: RepoState, context: string, appId: unknown): number | null {
  if (appId === -1) return null;
  if (typeof appId === "number" && Number.isInteger(appId) && appId > 0) return appId;
  if (appId !== undefined) throw validationFailed("Invalid request.\n\nFor 'app_id', it is not an integer.");
  const recent = [...repo.checkRuns.values()].filter((r) => r.name === context && r.appId !== null).sort((a, b) => b.id - a.id)[0];
  return recent?.appId ?? null;
}

function putProtection(state: FakeState, ctx: RouteContext) {
  const { name } = branchOf(ctx);
  const body = ctx.body;
  for (const key of ["required_status_checks", "enforce_admins", "required_pull_request_reviews", "restrictions"]) {
    if (!(key in body)) throw validationFailed(`Invalid request.\n\nNo subschema in "anyOf" matched.\n"${key}" wasn't supplied.`);
  }
  let requiredStatusChecks: ProtectionRecord["requiredStatusChecks"] = null;
  const rsc = body.required_status_checks;
  if (rsc !== null) {
    if (!isObject(rsc) || typeof rsc.strict !== "boolean") throw validationFailed("Invalid request.\n\nFor 'required_status_checks', \"strict\" wasn't supplied.");
    const checks: RequiredCheck[] = [];
    if (Array.isArray(rsc.checks)) {
      for (const c of rsc.checks as unknown[]) {
        if (!isObject(c) || typeof c.context !== "string") throw validationFailed("Invalid request.\n\nFor 'checks', each item needs a \"context\".");
        checks.push({ context: c.context, appId: sourceOf(ctx.repo, c.context, c.app_id) });
      }
    } else if (Array.isArray(rsc.contexts)) {
      for (const context of rsc.contexts as unknown[]) checks.push({ context: String(context), appId: sourceOf(ctx.repo, String(context), undefined) });
    } else throw validationFailed("Invalid request.\n\nFor 'required_status_checks', \"contexts\" wasn't supplied.");
    requiredStatusChecks = { strict: rsc.strict, checks };
  }
  const reviews = body.required_pull_request_reviews;
  const flag = (key: string) => body[key] === true;
  const record: ProtectionRecord = {
    requiredStatusChecks,
    enforceAdmins: flag("enforce_admins"),
    requiredPullRequestReviews: isObject(reviews)
      ? {
          requiredApprovingReviewCount: typeof reviews.required_approving_review_count === "number" ? reviews.required_approving_review_count : 1,
          dismissStaleReviews: reviews.dismiss_stale_reviews === true,
          requireCodeOwnerReviews: reviews.require_code_owner_reviews === true,
          requireLastPushApproval: reviews.require_last_push_approval === true,
        }
      : null,
    requiredLinearHistory: flag("required_linear_history"),
    allowForcePushes: flag("allow_force_pushes"),
    allowDeletions: flag("allow_deletions"),
  };
  setupOf(ctx.repo).protection.set(name, record);
  return { status: 200, body: protectionJson(state, ctx.repo, name, record) };
}

function deleteProtection(_state: FakeState, ctx: RouteContext) {
  const { name } = branchOf(ctx);
  if (!setupOf(ctx.repo).protection.delete(name)) throw new HttpError(404, "Branch not protected");
  return { status: 204 };
}

export const branchProtectionRoutes: Route[] = [
  { method: "GET", pattern: "/repos/{owner}/{repo}/branches/{branch}", kind: "read", handler: getBranch },
  { method: "GET", pattern: "/repos/{owner}/{repo}/branches/{branch}/protection", kind: "read", access: "admin", handler: getProtection },
  { method: "PUT", pattern: "/repos/{owner}/{repo}/branches/{branch}/protection", kind: "write", access: "admin", handler: putProtection },
  { method: "DELETE", pattern: "/repos/{owner}/{repo}/branches/{branch}/protection", kind: "write", access: "admin", handler: deleteProtection },
];
