/** GitHub Actions: workflow dispatch (with `return_run_details`), workflows and workflow runs. */
import { HttpError, notFound, validationFailed } from "../http-error.js";
import { resolveCommitish } from "../git-objects.js";
import { paginate } from "../paginate.js";
import { intParam, optionalBoolean, requiredString } from "../read-body.js";
import type { Route, RouteContext } from "../route.js";
import { nextId, type FakeState, type WorkflowRecord, type WorkflowRunRecord } from "../state.js";
import { workflowJson, workflowRunJson } from "../to-json-ci.js";
import { repoHtmlUrl, repoUrl } from "../to-json-user-repo.js";

export const MAX_DISPATCH_INPUTS = 25;

/** `{workflow_id}` is an id or a file name (`bosun-worker.yml`). */
function findWorkflow(ctx: RouteContext): WorkflowRecord {
  const key = ctx.params.workflow_id ?? "";
  const byId = /^\d+$/.test(key) ? ctx.repo.workflows.get(Number(key)) : undefined;
  const workflow = byId ?? [...ctx.repo.workflows.values()].find((w) => w.path === key || w.path.endsWith(`/${key}`));
  if (workflow === undefined) throw notFound();
  return workflow;
}

function dispatch(state: FakeState, ctx: RouteContext) {
  const workflow = findWorkflow(ctx);
  const ref = requiredString(ctx.body, "ref");
  const inputs = (ctx.body.inputs ?? {}) as Record<string, unknown>;
  if (typeof inputs !== "object" || inputs === null || Array.isArray(inputs)) throw validationFailed("Invalid request.\n\nFor 'inputs', it is not an object.");
  if (Object.keys(inputs).length > MAX_DISPATCH_INPUTS) throw validationFailed(`Invalid request.\n\nFor 'properties/inputs', too many properties (maximum ${MAX_DISPATCH_INPUTS}).`);
  const sha = resolveCommitish(ctx.repo, ref);
  if (sha === undefined) throw validationFailed(`No ref found for: ${ref}`);
  // A GitHub Actions stand-in reads the workflow file at that commit: it may refuse the dispatch (422) and names the run.
  const named = state.actions?.dispatch({ repo: ctx.repo, workflow, ref, sha, inputs, actor: ctx.login });
  const now = state.clock.now();
  const runNumber = [...ctx.repo.workflowRuns.values()].filter((r) => r.workflowId === workflow.id).length + 1;
  const run: WorkflowRunRecord = {
    id: nextId(state),
    workflowId: workflow.id,
    event: "workflow_dispatch",
    headBranch: ref.replace(/^refs\/heads\//, ""),
    headSha: sha,
    status: "queued",
    conclusion: null,
    inputs,
    actor: ctx.login,
    runNumber,
    createdAt: now,
    updatedAt: now,
    ...(named === undefined ? {} : { displayTitle: named.displayTitle }),
  };
  ctx.repo.workflowRuns.set(run.id, run);
  ctx.emit({ event: "workflow_run", action: "requested", fields: () => ({ workflow_run: workflowRunJson(state, ctx.repo, run), workflow: workflowJson(state, ctx.repo, workflow) }) });
  if (optionalBoolean(ctx.body, "return_run_details") === true) {
    return {
      status: 200,
      body: { workflow_run_id: run.id, run_url: `${repoUrl(state, ctx.repo)}/actions/runs/${run.id}`, html_url: `${repoHtmlUrl(state, ctx.repo)}/actions/runs/${run.id}` },
    };
  }
  return { status: 204 };
}

function getRun(state: FakeState, ctx: RouteContext) {
  const run = ctx.repo.workflowRuns.get(intParam(ctx.params, "run_id"));
  if (run === undefined) throw notFound();
  return { status: 200, body: workflowRunJson(state, ctx.repo, run) };
}

/**
 * `POST .../actions/runs/{run_id}/cancel`: 202 `{}`, and the run ends `cancelled` (on GitHub the
 * status moves a moment later; here at once, so a test sees the end it asked for). A completed run
 * cannot be cancelled: 409, as GitHub answers.
 */
function cancelRun(state: FakeState, ctx: RouteContext) {
  const run = ctx.repo.workflowRuns.get(intParam(ctx.params, "run_id"));
  if (run === undefined) throw notFound();
  if (run.status === "completed") throw new HttpError(409, "Cannot cancel a workflow run that is completed.");
  run.status = "completed";
  run.conclusion = "cancelled";
  run.updatedAt = state.clock.now();
  const workflow = ctx.repo.workflows.get(run.workflowId);
  ctx.emit({ event: "workflow_run", action: "completed", fields: () => ({ workflow_run: workflowRunJson(state, ctx.repo, run), workflow: workflow === undefined ? null : workflowJson(state, ctx.repo, workflow) }) });
  return { status: 202, body: {} };
}

/** `GET .../actions/runs/{run_id}/attempts/{attempt_number}`: that attempt as it ended (or the latest, as it is now). */
function getRunAttempt(state: FakeState, ctx: RouteContext) {
  const run = ctx.repo.workflowRuns.get(intParam(ctx.params, "run_id"));
  const attempt = intParam(ctx.params, "attempt_number");
  if (run === undefined || attempt < 1 || attempt > (run.priorAttempts?.length ?? 0) + 1) throw notFound();
  return { status: 200, body: workflowRunJson(state, ctx.repo, run, attempt) };
}

/**
 * `POST .../actions/runs/{run_id}/rerun` (and `rerun-failed-jobs`): anyone with write access may
 * re-run a completed run (GitHub: "Re-running workflows and jobs"). The run keeps its id, `actor`,
 * head and inputs; the new attempt is queued with the caller as its `triggering_actor`, and the
 * attempt before it stays readable. A run still going cannot be re-run (GitHub offers a re-run only
 * of a completed run; its REST description lists no error answer, so the fake's 403 is a guess).
 */
function rerunRun(state: FakeState, ctx: RouteContext) {
  const run = ctx.repo.workflowRuns.get(intParam(ctx.params, "run_id"));
  if (run === undefined) throw notFound();
  if (run.status !== "completed") throw new HttpError(403, "This workflow is already running");
  const now = state.clock.now();
  run.priorAttempts = [...(run.priorAttempts ?? []), { triggeringActor: run.triggeringActor ?? run.actor, status: "completed", conclusion: run.conclusion, startedAt: run.startedAt ?? run.createdAt, updatedAt: run.updatedAt }];
  run.triggeringActor = ctx.login;
  run.status = "queued";
  run.conclusion = null;
  run.startedAt = now;
  run.updatedAt = now;
  const workflow = ctx.repo.workflows.get(run.workflowId);
  ctx.emit({ event: "workflow_run", action: "requested", fields: () => ({ workflow_run: workflowRunJson(state, ctx.repo, run), workflow: workflow === undefined ? null : workflowJson(state, ctx.repo, workflow) }) });
  return { status: 201, body: {} };
}

function filteredRuns(ctx: RouteContext, workflowId?: number): WorkflowRunRecord[] {
  const q = (k: string) => ctx.query.get(k);
  return [...ctx.repo.workflowRuns.values()]
    .filter((r) => workflowId === undefined || r.workflowId === workflowId)
    .filter((r) => q("status") === null || r.status === q("status") || r.conclusion === q("status"))
    .filter((r) => q("event") === null || r.event === q("event"))
    .filter((r) => q("branch") === null || r.headBranch === q("branch"))
    .filter((r) => q("head_sha") === null || r.headSha === q("head_sha"))
    .filter((r) => q("actor") === null || r.actor === q("actor"))
    .sort((a, b) => b.id - a.id);
}

function listRuns(state: FakeState, ctx: RouteContext) {
  const runs = filteredRuns(ctx).map((r) => workflowRunJson(state, ctx.repo, r));
  return paginate(ctx, runs, { wrap: (page, total) => ({ total_count: total, workflow_runs: page }) });
}

function listWorkflowRuns(state: FakeState, ctx: RouteContext) {
  const runs = filteredRuns(ctx, findWorkflow(ctx).id).map((r) => workflowRunJson(state, ctx.repo, r));
  return paginate(ctx, runs, { wrap: (page, total) => ({ total_count: total, workflow_runs: page }) });
}

function getWorkflow(state: FakeState, ctx: RouteContext) {
  return { status: 200, body: workflowJson(state, ctx.repo, findWorkflow(ctx)) };
}

function listWorkflows(state: FakeState, ctx: RouteContext) {
  const list = [...ctx.repo.workflows.values()].map((w) => workflowJson(state, ctx.repo, w));
  return paginate(ctx, list, { wrap: (page, total) => ({ total_count: total, workflows: page }) });
}

export const actionRoutes: Route[] = [
  { method: "GET", pattern: "/repos/{owner}/{repo}/actions/workflows", kind: "read", handler: listWorkflows },
  { method: "GET", pattern: "/repos/{owner}/{repo}/actions/workflows/{workflow_id}", kind: "read", handler: getWorkflow },
  { method: "POST", pattern: "/repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches", kind: "create", access: "write", handler: dispatch },
  { method: "GET", pattern: "/repos/{owner}/{repo}/actions/workflows/{workflow_id}/runs", kind: "read", handler: listWorkflowRuns },
  { method: "GET", pattern: "/repos/{owner}/{repo}/actions/runs", kind: "read", handler: listRuns },
  { method: "GET", pattern: "/repos/{owner}/{repo}/actions/runs/{run_id}", kind: "read", handler: getRun },
  { method: "GET", pattern: "/repos/{owner}/{repo}/actions/runs/{run_id}/attempts/{attempt_number}", kind: "read", handler: getRunAttempt },
  { method: "POST", pattern: "/repos/{owner}/{repo}/actions/runs/{run_id}/cancel", kind: "write", access: "write", handler: cancelRun },
  { method: "POST", pattern: "/repos/{owner}/{repo}/actions/runs/{run_id}/rerun", kind: "write", access: "write", handler: rerunRun },
  { method: "POST", pattern: "/repos/{owner}/{repo}/actions/runs/{run_id}/rerun-failed-jobs", kind: "write", access: "write", handler: rerunRun },
];
