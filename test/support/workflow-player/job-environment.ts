/**
 * What a runner gives a job: the `github` context and the environment every step's process starts
 * with (https://docs.github.com/en/actions/reference/workflows-and-actions/variables#default-environment-variables).
 */
import { randomBytes } from "node:crypto";
import { SERVER_URL } from "./checkout-step.js";
import { toValue, type Value } from "./expression-values.js";
import type { JobSpec } from "./parse-workflow.js";
import type { PlayedRun } from "./player-types.js";

function pullSide(run: PlayedRun, side: "head" | "base"): string {
  if (!run.event.startsWith("pull_request")) return "";
  const pull = run.payload["pull_request"] as Record<string, Record<string, unknown>> | undefined;
  return String(pull?.[side]?.["ref"] ?? "");
}

/** The `github` context of a job; `token`, `workspace` and `event_path` are added once the job has them. */
export function githubContext(run: PlayedRun, job: Pick<JobSpec, "id">, apiUrl: string): Record<string, Value> {
  return {
    event_name: run.event,
    event: toValue(run.payload),
    sha: run.sha,
    ref: run.ref,
    ref_name: run.ref.replace(/^refs\/(heads|tags)\//, ""),
    repository: run.fullName,
    repository_owner: run.repo.owner,
    run_id: String(run.id),
    run_number: "1",
    run_attempt: "1",
    actor: run.actor,
    triggering_actor: run.actor,
    workflow: run.workflow.name,
    workflow_ref: `${run.fullName}/${run.workflow.path}@${run.ref}`,
    job: job.id,
    server_url: SERVER_URL,
    api_url: apiUrl,
    graphql_url: `${apiUrl}/graphql`,
    head_ref: pullSide(run, "head"),
    base_ref: pullSide(run, "base"),
    retention_days: "90",
  };
}

export interface RunnerPaths {
  readonly workspace: string;
  readonly runnerTemp: string;
  readonly eventPath: string;
  readonly home: string;
  readonly apiUrl: string;
  readonly refName: string;
  readonly extra: Readonly<Record<string, string>> | undefined;
}

/** The environment a runner sets for every step of a job (the step's `env:` goes on top). */
export function runnerEnv(run: PlayedRun, job: JobSpec, paths: RunnerPaths): Record<string, string> {
  return {
    PATH: process.env["PATH"] ?? "",
    HOME: process.env["HOME"] ?? paths.home,
    LANG: "C.UTF-8",
    CI: "true",
    GITHUB_ACTIONS: "true",
    RUNNER_OS: "Linux",
    RUNNER_ARCH: "X64",
    RUNNER_TEMP: paths.runnerTemp,
    GITHUB_WORKSPACE: paths.workspace,
    GITHUB_EVENT_PATH: paths.eventPath,
    GITHUB_EVENT_NAME: run.event,
    GITHUB_REPOSITORY: run.fullName,
    GITHUB_REPOSITORY_OWNER: run.repo.owner,
    GITHUB_API_URL: paths.apiUrl,
    GITHUB_SERVER_URL: SERVER_URL,
    GITHUB_GRAPHQL_URL: `${paths.apiUrl}/graphql`,
    GITHUB_SHA: run.sha,
    GITHUB_REF: run.ref,
    GITHUB_REF_NAME: paths.refName,
    GITHUB_RUN_ID: String(run.id),
    GITHUB_RUN_NUMBER: "1",
    GITHUB_RUN_ATTEMPT: "1",
    GITHUB_ACTOR: run.actor,
    GITHUB_TRIGGERING_ACTOR: run.actor,
    GITHUB_WORKFLOW: run.workflow.name,
    GITHUB_JOB: job.id,
    // Every runner holds these; a step must never hand them on.
    ACTIONS_RUNTIME_TOKEN: `runtime-${randomBytes(12).toString("hex")}`,
    ACTIONS_RESULTS_URL: "http://127.0.0.1:9/results",
    ...paths.extra,
  };
}
