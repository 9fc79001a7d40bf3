/** Check runs: create and update (at most 50 annotations per request), get, list for a ref. */
import { HttpError, notFound, validationFailed } from "../http-error.js";
import { resolveCommitish } from "../git-objects.js";
import { paginate } from "../paginate.js";
import { intParam, optionalString, requiredString } from "../read-body.js";
import type { Route, RouteContext } from "../route.js";
import { nextId, type CheckRunRecord, type FakeState } from "../state.js";
import { checkRunJson } from "../to-json-ci.js";

export const MAX_ANNOTATIONS_PER_REQUEST = 50;
export const MAX_SUMMARY_CHARS = 65_535;

const STATUSES = new Set(["queued", "in_progress", "completed", "waiting", "requested", "pending"]);
const CONCLUSIONS = new Set(["action_required", "cancelled", "failure", "neutral", "success", "skipped", "stale", "timed_out"]);

function applyOutput(run: CheckRunRecord, output: unknown): void {
  if (output === undefined) return;
  if (typeof output !== "object" || output === null) throw validationFailed("Invalid request.\n\nFor 'output', it is not an object.");
  const o = output as Record<string, unknown>;
  const annotations = Array.isArray(o.annotations) ? o.annotations : [];
  if (annotations.length > MAX_ANNOTATIONS_PER_REQUEST) {
    throw validationFailed("Invalid request.\n\nOnly 50 annotations can be sent per request.");
  }
  const summary = typeof o.summary === "string" ? o.summary : run.output.summary;
  if (summary !== null && summary.length > MAX_SUMMARY_CHARS) {
    throw validationFailed("Invalid request.\n\nOnly 65535 characters are allowed; 'summary' is too long.");
  }
  run.output = {
    title: typeof o.title === "string" ? o.title : run.output.title,
    summary,
    text: typeof o.text === "string" ? o.text : run.output.text,
    annotationsCount: run.output.annotationsCount + annotations.length,
  };
  run.annotations.push(...annotations);
}

function applyStatus(state: FakeState, run: CheckRunRecord, body: Record<string, unknown>): void {
  const status = optionalString(body, "status");
  const conclusion = optionalString(body, "conclusion");
  if (status !== undefined && !STATUSES.has(status)) throw validationFailed("Invalid request.\n\nstatus is not included in the list.");
  if (conclusion !== undefined && !CONCLUSIONS.has(conclusion)) throw validationFailed("Invalid request.\n\nconclusion is not included in the list.");
  if (status !== undefined) run.status = status as CheckRunRecord["status"];
  if (conclusion !== undefined) {
    run.conclusion = conclusion;
    run.status = "completed";
  }
  if (run.status === "completed") {
    if (run.conclusion === null) throw validationFailed("Invalid request.\n\n'conclusion' wasn't supplied.");
    run.completedAt = typeof body.completed_at === "string" ? Date.parse(body.completed_at) : state.clock.now();
  }
}

function createCheckRun(state: FakeState, ctx: RouteContext) {
  const headSha = requiredString(ctx.body, "head_sha");
  if (resolveCommitish(ctx.repo, headSha) === undefined) throw validationFailed("No commit found for SHA: " + headSha);
  const run: CheckRunRecord = {
    id: nextId(state),
    name: requiredString(ctx.body, "name"),
    headSha,
    status: "queued",
    conclusion: null,
    startedAt: state.clock.now(),
    completedAt: null,
    externalId: optionalString(ctx.body, "external_id") ?? "",
    detailsUrl: optionalString(ctx.body, "details_url") ?? null,
    output: { title: null, summary: null, text: null, annotationsCount: 0 },
    annotations: [],
    appId: ctx.identity.kind === "app" ? ctx.identity.appId : installationAppId(state, ctx),
    appSlug: null,
  };
  applyOutput(run, ctx.body.output);
  applyStatus(state, run, ctx.body);
  ctx.repo.checkRuns.set(run.id, run);
  ctx.emit({ event: "check_run", action: "created", fields: () => ({ check_run: checkRunJson(state, ctx.repo, run) }) });
  return { status: 201, body: checkRunJson(state, ctx.repo, run) };
}

function installationAppId(state: FakeState, ctx: RouteContext): number | null {
  if (ctx.identity.kind !== "bot" || ctx.identity.installationId === undefined) return null;
  return state.installations.get(ctx.identity.installationId)?.appId ?? null;
}

function findRun(ctx: RouteContext): CheckRunRecord {
  const run = ctx.repo.checkRuns.get(intParam(ctx.params, "check_run_id"));
  if (run === undefined) throw notFound();
  return run;
}

function updateCheckRun(state: FakeState, ctx: RouteContext) {
  const run = findRun(ctx);
  if (run.appId !== null && run.appId !== installationAppId(state, ctx) && !(ctx.identity.kind === "app" && ctx.identity.appId === run.appId)) {
    throw new HttpError(403, "Invalid app_id `" + String(run.appId) + "` - check run can only be modified by the GitHub App that created it.");
  }
  applyOutput(run, ctx.body.output);
  applyStatus(state, run, ctx.body);
  if (run.status === "completed") ctx.emit({ event: "check_run", action: "completed", fields: () => ({ check_run: checkRunJson(state, ctx.repo, run) }) });
  return { status: 200, body: checkRunJson(state, ctx.repo, run) };
}

function getCheckRun(state: FakeState, ctx: RouteContext) {
  return { status: 200, body: checkRunJson(state, ctx.repo, findRun(ctx)) };
}

function listForRef(state: FakeState, ctx: RouteContext) {
  const sha = resolveCommitish(ctx.repo, ctx.params.ref ?? "");
  const name = ctx.query.get("check_name");
  const runs = [...ctx.repo.checkRuns.values()].filter((r) => r.headSha === sha && (name === null || r.name === name)).sort((a, b) => b.id - a.id);
  return paginate(ctx, runs.map((r) => checkRunJson(state, ctx.repo, r)), { wrap: (page, total) => ({ total_count: total, check_runs: page }) });
}

export const checkRoutes: Route[] = [
  { method: "POST", pattern: "/repos/{owner}/{repo}/check-runs", kind: "create", access: "write", appOnly: true, handler: createCheckRun },
  { method: "GET", pattern: "/repos/{owner}/{repo}/check-runs/{check_run_id}", kind: "read", handler: getCheckRun },
  { method: "PATCH", pattern: "/repos/{owner}/{repo}/check-runs/{check_run_id}", kind: "write", access: "write", appOnly: true, handler: updateCheckRun },
  { method: "GET", pattern: "/repos/{owner}/{repo}/commits/{ref}/check-runs", kind: "read", handler: listForRef },
];
