/** GitHub's JSON shapes for check runs, commit statuses, deployments and workflow runs. */
import { isoTime } from "./clock.js";
import type { CheckRunRecord, DeploymentRecord, DeploymentStatusRecord, FakeState, RepoState, StatusRecord, WorkflowRecord, WorkflowRunRecord } from "./state.js";
import { appJson } from "./to-json-app.js";
import { nodeId, repoHtmlUrl, repoJson, repoUrl, userJson } from "./to-json-user-repo.js";

export function checkRunJson(state: FakeState, repo: RepoState, run: CheckRunRecord): Record<string, unknown> {
  const url = `${repoUrl(state, repo)}/check-runs/${run.id}`;
  return {
    id: run.id,
    node_id: nodeId("CheckRun", run.id),
    head_sha: run.headSha,
    external_id: run.externalId,
    url,
    html_url: `${repoHtmlUrl(state, repo)}/runs/${run.id}`,
    details_url: run.detailsUrl,
    status: run.status,
    conclusion: run.conclusion,
    started_at: isoTime(run.startedAt),
    completed_at: run.completedAt === null ? null : isoTime(run.completedAt),
    output: {
      title: run.output.title,
      summary: run.output.summary,
      text: run.output.text,
      annotations_count: run.output.annotationsCount,
      annotations_url: `${url}/annotations`,
    },
    name: run.name,
    check_suite: { id: run.id },
    app: run.appId === null ? null : appJson(state, run.appId),
    pull_requests: checkPulls(state, repo, run.headSha),
  };
}

/**
 * The open pull requests of the repository itself (not from forks) whose head is the check's
 * commit, in GitHub's minimal form ("pull_requests" of a check run, REST "Get a check run").
 */
function checkPulls(state: FakeState, repo: RepoState, sha: string): Array<Record<string, unknown>> {
  const side = (ref: string, at: string) => ({ ref, sha: at, repo: { id: repo.id, url: repoUrl(state, repo), name: repo.name } });
  return [...repo.pulls.values()]
    .filter((p) => p.headSha === sha && p.headRepo === undefined && repo.issues.get(p.number)?.state === "open")
    .map((p) => ({ id: p.number, number: p.number, url: `${repoUrl(state, repo)}/pulls/${p.number}`, head: side(p.headRef, p.headSha), base: side(p.baseRef, p.baseSha) }));
}

function statusCommon(state: FakeState, repo: RepoState, status: StatusRecord) {
  return {
    url: `${repoUrl(state, repo)}/statuses/${status.sha}`,
    avatar_url: null,
    id: status.id,
    node_id: nodeId("StatusContext", status.id),
    state: status.state,
    description: status.description,
    target_url: status.targetUrl,
    context: status.context,
    created_at: isoTime(status.createdAt),
    updated_at: isoTime(status.updatedAt),
  };
}

/** `status`, as create and list return it. */
export function statusJson(state: FakeState, repo: RepoState, status: StatusRecord): Record<string, unknown> {
  return { ...statusCommon(state, repo, status), creator: userJson(state, status.creator) };
}

/** `combined-commit-status`: the latest status per context; failure/error beats pending beats success. */
export function combinedStatusJson(state: FakeState, repo: RepoState, sha: string, statuses: StatusRecord[]): Record<string, unknown> {
  const latest = new Map<string, StatusRecord>();
  for (const s of statuses) latest.set(s.context, s);
  const list = [...latest.values()];
  const combined = list.length === 0 ? "pending" : list.some((s) => s.state === "failure" || s.state === "error") ? "failure" : list.some((s) => s.state === "pending") ? "pending" : "success";
  return {
    state: combined,
    statuses: list.map((s) => statusCommon(state, repo, s)),
    sha,
    total_count: list.length,
    repository: repoJson(state, repo),
    commit_url: `${repoUrl(state, repo)}/commits/${sha}`,
    url: `${repoUrl(state, repo)}/commits/${sha}/status`,
  };
}

export function deploymentJson(state: FakeState, repo: RepoState, d: DeploymentRecord): Record<string, unknown> {
  const url = `${repoUrl(state, repo)}/deployments/${d.id}`;
  return {
    url,
    id: d.id,
    node_id: nodeId("Deployment", d.id),
    sha: d.sha,
    ref: d.ref,
    task: d.task,
    payload: d.payload,
    original_environment: d.environment,
    environment: d.environment,
    description: d.description,
    creator: userJson(state, d.creator),
    created_at: isoTime(d.createdAt),
    updated_at: isoTime(d.updatedAt),
    statuses_url: `${url}/statuses`,
    repository_url: repoUrl(state, repo),
    transient_environment: false,
    production_environment: d.environment === "production",
  };
}

export function deploymentStatusJson(state: FakeState, repo: RepoState, d: DeploymentRecord, s: DeploymentStatusRecord): Record<string, unknown> {
  const url = `${repoUrl(state, repo)}/deployments/${d.id}`;
  return {
    url: `${url}/statuses/${s.id}`,
    id: s.id,
    node_id: nodeId("DeploymentStatus", s.id),
    state: s.state,
    creator: userJson(state, s.creator),
    description: s.description,
    environment: s.environment,
    target_url: s.logUrl,
    log_url: s.logUrl,
    environment_url: s.environmentUrl,
    created_at: isoTime(s.createdAt),
    updated_at: isoTime(s.createdAt),
    deployment_url: url,
    repository_url: repoUrl(state, repo),
  };
}

export function workflowJson(state: FakeState, repo: RepoState, w: WorkflowRecord): Record<string, unknown> {
  return {
    id: w.id,
    node_id: nodeId("Workflow", w.id),
    name: w.name,
    path: w.path,
    state: "active",
    created_at: isoTime(w.createdAt),
    updated_at: isoTime(w.createdAt),
    url: `${repoUrl(state, repo)}/actions/workflows/${w.id}`,
    html_url: `${repoHtmlUrl(state, repo)}/blob/${repo.defaultBranch}/${w.path}`,
    badge_url: `${repoHtmlUrl(state, repo)}/workflows/${encodeURIComponent(w.name)}/badge.svg`,
  };
}

/**
 * A workflow run as GitHub shows it: its latest attempt, or (`attempt`) an earlier one as
 * `GET .../runs/{id}/attempts/{n}` does — same id, actor, head and inputs; that attempt's
 * `triggering_actor`, status and conclusion.
 */
export function workflowRunJson(state: FakeState, repo: RepoState, run: WorkflowRunRecord, attempt?: number): Record<string, unknown> {
  const prior = attempt === undefined ? undefined : run.priorAttempts?.[attempt - 1];
  const latest = (run.priorAttempts?.length ?? 0) + 1;
  const shown = prior === undefined ? { attempt: latest, triggeringActor: run.triggeringActor ?? run.actor, status: run.status, conclusion: run.conclusion, startedAt: run.startedAt ?? run.createdAt, updatedAt: run.updatedAt } : { attempt: attempt ?? 1, ...prior };
  const url = `${repoUrl(state, repo)}/actions/runs/${run.id}`;
  const workflow = repo.workflows.get(run.workflowId);
  const commit = repo.commits.get(run.headSha);
  const repository = repoJson(state, repo);
  return {
    id: run.id,
    name: workflow?.name ?? null,
    node_id: nodeId("WorkflowRun", run.id),
    check_suite_id: run.id,
    check_suite_node_id: nodeId("CheckSuite", run.id),
    head_branch: run.headBranch,
    head_sha: run.headSha,
    path: run.path ?? workflow?.path ?? "",
    display_title: run.displayTitle ?? displayTitle(workflow?.runName ?? workflow?.name ?? "workflow", run.inputs),
    run_number: run.runNumber,
    run_attempt: shown.attempt,
    event: run.event,
    status: shown.status,
    conclusion: shown.conclusion,
    workflow_id: run.workflowId,
    url,
    html_url: `${repoHtmlUrl(state, repo)}/actions/runs/${run.id}`,
    pull_requests: runPullRequests(state, repo, run),
    created_at: isoTime(run.createdAt),
    updated_at: isoTime(shown.updatedAt),
    run_started_at: isoTime(shown.startedAt),
    actor: userJson(state, run.actor),
    triggering_actor: userJson(state, shown.triggeringActor),
    jobs_url: `${url}/jobs`,
    logs_url: `${url}/logs`,
    check_suite_url: `${repoUrl(state, repo)}/check-suites/${run.id}`,
    artifacts_url: `${url}/artifacts`,
    cancel_url: `${url}/cancel`,
    rerun_url: `${url}/rerun`,
    workflow_url: `${repoUrl(state, repo)}/actions/workflows/${run.workflowId}`,
    head_commit:
      commit === undefined
        ? null
        : { id: commit.sha, tree_id: commit.tree, message: commit.message, timestamp: commit.committer.date, author: { name: commit.author.name, email: commit.author.email }, committer: { name: commit.committer.name, email: commit.committer.email } },
    repository,
    head_repository: run.headRepo === undefined ? repository : { ...repository, name: run.headRepo.split("/")[1] ?? "", full_name: run.headRepo, owner: userJson(state, run.headRepo.split("/")[0] ?? ""), fork: true },
  };
}

/**
 * A run's `pull_requests` as GitHub describes them: "Pull requests that are open with a `head_sha`
 * or `head_branch` that matches the workflow run. The returned pull requests do not necessarily
 * indicate pull requests that triggered the run" — computed when read, in this repository (a fork's
 * run lists none).
 */
function runPullRequests(state: FakeState, repo: RepoState, run: WorkflowRunRecord): unknown[] {
  if (run.headRepo !== undefined) return [];
  const mini = { id: repo.id, url: repoUrl(state, repo), name: repo.name };
  return [...repo.pulls.values()]
    .filter((p) => p.headRepo === undefined && (p.headRef === run.headBranch || p.headSha === run.headSha) && repo.issues.get(p.number)?.state === "open")
    .map((p) => ({ url: `${repoUrl(state, repo)}/pulls/${p.number}`, id: p.id, number: p.number, head: { ref: p.headRef, sha: p.headSha, repo: mini }, base: { ref: p.baseRef, sha: p.baseSha, repo: mini } }));
}

/** GitHub renders `run-name:` with the dispatch's inputs; only `${{ inputs.x }}` is modelled. */
function displayTitle(template: string, inputs: Record<string, unknown>): string {
  return template.replace(/\$\{\{\s*inputs\.([A-Za-z0-9_-]+)\s*\}\}/g, (_m, name: string) => String(inputs[name] ?? ""));
}
