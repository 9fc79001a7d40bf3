/**
 * GitHub Actions for the fake GitHub: hears every event the fake emits (reliably, through
 * `webhooks.tap`), starts the workflows GitHub would start with the file from the commit GitHub
 * would read (see match-triggers.ts), keeps each as a workflow run in the fake (queued →
 * in_progress → completed with its conclusion, then `workflow_run.completed`), and plays their jobs
 * only when the test says so (`runNextJob`, `runPending`, `runUntilQuiet`), so a test controls every
 * interleaving. A dispatch through the API is checked against the workflow file at its ref (422 as
 * GitHub answers) and titled by its evaluated `run-name`.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { buildWebhookPayload } from "../../fake-github/build-webhook-payload.js";
import { filesAt } from "../../fake-github/git-objects.js";
import { HttpError } from "../../fake-github/http-error.js";
import { nextId, type WorkflowRecord, type WorkflowRunRecord } from "../../fake-github/state.js";
import { workflowJson, workflowRunJson } from "../../fake-github/to-json-ci.js";
import { createArtifactStore } from "./artifact-store.js";
import { toValue, type Value } from "./expression-values.js";
import { interpolate } from "./interpolate.js";
import { ACTIONS_BOT, matchTriggers, workflowsAt, type TriggeredRun } from "./match-triggers.js";
import { parseWorkflow, type WorkflowSpec } from "./parse-workflow.js";
import type { JobRecord, PlayedRun, PlayerOptions, PlayerRuntime } from "./player-types.js";
import { planJobs } from "./plan-jobs.js";
import { playNextJob } from "./play-next-job.js";

/** GitHub Actions' own app, whose installation tokens are the jobs' GITHUB_TOKENs. */
export const ACTIONS_APP_ID = 15368;
const ACTIONS_INSTALLATION_ID = 15_368_000;

export interface ActionsService {
  /** Every run the service started, oldest first. */
  readonly runs: readonly PlayedRun[];
  /** Runs with jobs still to play, oldest first. */
  pending(): PlayedRun[];
  /** Plays the next job of the oldest pending run (completing the run after its last); false when nothing is pending. */
  runNextJob(): Promise<boolean>;
  /** Plays pending runs, and the runs they start, until none is pending; answers how many jobs ran. */
  runPending(): Promise<number>;
  /**
   * Alternates delivering webhooks (`fake.webhooks.flush()`, then `settle`) and playing runs until a
   * round starts no run; throws after `maxRounds` naming what is still pending.
   */
  runUntilQuiet(options?: { settle?: () => Promise<void>; maxRounds?: number }): Promise<void>;
  /** Starts `on: schedule` workflows of the default branch, as a cron tick would. */
  schedule(): void;
  /** Stops hearing events and unplugs the dispatch hook. */
  close(): void;
}

export function createActionsService(options: PlayerOptions & { readonly repo: string }): ActionsService {
  const { fake } = options;
  const repo = fake.repo(options.repo);
  const state = fake.state;
  const runs: PlayedRun[] = [];
  const workRoot = options.workRoot ?? mkdtempSync(join(tmpdir(), "workflow-player-"));
  if (![...state.installations.values()].some((i) => i.appId === ACTIONS_APP_ID && i.repos.includes(options.repo))) {
    fake.addInstallation({ id: ACTIONS_INSTALLATION_ID + state.installations.size, appId: ACTIONS_APP_ID, appSlug: "github-actions", repos: [options.repo] });
  }
  const installationId = [...state.installations.values()].find((i) => i.appId === ACTIONS_APP_ID && i.repos.includes(options.repo))?.id;
  const runtime: PlayerRuntime = {
    options: { ...options, workRoot },
    artifacts: createArtifactStore(workRoot),
    mintJobToken(_run, scopes) {
      const token = `ghs_job${randomBytes(16).toString("hex")}`;
      state.tokens.set(token, { kind: "bot", login: ACTIONS_BOT, ...(installationId === undefined ? {} : { installationId }), scopes });
      return token;
    },
    revokeToken(token) {
      state.tokens.delete(token);
    },
  };

  /** The workflow record for a path, registered on first sight (as GitHub lists a workflow once a run of it exists). */
  const workflowRecord = (spec: WorkflowSpec): WorkflowRecord => {
    const found = [...repo.workflows.values()].find((w) => w.path === spec.path);
    if (found !== undefined) return found;
    const id = fake.addWorkflow(options.repo, { path: spec.path, name: spec.name, ...(spec.runName === undefined ? {} : { runName: spec.runName }) });
    return repo.workflows.get(id) as WorkflowRecord;
  };
  const syncDefaultBranch = (): void => {
    const tip = repo.refs.get(`refs/heads/${repo.defaultBranch}`);
    if (tip !== undefined) for (const spec of workflowsAt(repo, tip)) workflowRecord(spec);
  };
  syncDefaultBranch();

  const dispatchInputs = (spec: WorkflowSpec, given: Record<string, unknown>): Record<string, Value> => {
    const declared = spec.on["workflow_dispatch"]?.inputs ?? {};
    const unexpected = Object.keys(given).filter((k) => !(k in declared));
    if (unexpected.length > 0) throw new HttpError(422, `Unexpected inputs provided: ${JSON.stringify(unexpected)}`);
    for (const [name, input] of Object.entries(declared)) {
      if (input.required && (given[name] === undefined || given[name] === "") && input.default === undefined) throw new HttpError(422, `Required input '${name}' not provided`);
    }
    return Object.fromEntries(Object.entries(declared).map(([name, input]) => [name, toValue(given[name] ?? input.default ?? "")]));
  };
  const runNameOf = (spec: WorkflowSpec, payload: Record<string, unknown>, inputs: Record<string, Value>, sha: string, ref: string, actor: string, event: string): string => {
    if (spec.runName === undefined) return spec.name;
    return interpolate(spec.runName, { contexts: { github: { event_name: event, event: toValue(payload), sha, ref, actor, repository: options.repo, triggering_actor: actor }, inputs, vars: toValue(options.vars ?? {}) } });
  };

  state.actions = {
    dispatch({ workflow, ref, sha, inputs, actor }) {
      const text = filesAt(repo, sha)?.get(workflow.path);
      if (text === undefined) throw new HttpError(404, `Not Found: ${workflow.path} is not at ${ref}`);
      const spec = parseWorkflow(workflow.path, text);
      if (spec.on["workflow_dispatch"] === undefined) throw new HttpError(422, "Workflow does not have 'workflow_dispatch' trigger");
      const values = dispatchInputs(spec, inputs);
      const payload = { inputs: values, ref: ref.startsWith("refs/") ? ref : `refs/heads/${ref}` };
      return { displayTitle: runNameOf(spec, payload, values, sha, payload.ref, actor, "workflow_dispatch") };
    },
  };

  const adopt = (record: WorkflowRunRecord, spec: WorkflowSpec, event: string, payload: Record<string, unknown>, sha: string, ref: string, inputs: Record<string, Value>): void => {
    const frame = { workflow: spec, inputs, secrets: { ...options.secrets }, prefix: "", permissions: spec.permissions, depth: 0 };
    runs.push({ id: record.id, repo, fullName: options.repo, workflow: spec, event, payload, sha, ref, actor: record.actor, inputs, jobs: new Map(), pendingJobs: planJobs(frame, []) });
  };

  const start = (triggered: TriggeredRun, event: string, payload: Record<string, unknown>, sender: string): void => {
    const workflow = workflowRecord(triggered.workflow);
    const now = state.clock.now();
    const record: WorkflowRunRecord = {
      id: nextId(state),
      workflowId: workflow.id,
      event,
      headBranch: triggered.headBranch,
      headSha: triggered.headSha,
      status: "queued",
      conclusion: null,
      inputs: {},
      actor: sender,
      runNumber: [...repo.workflowRuns.values()].filter((r) => r.workflowId === workflow.id).length + 1,
      createdAt: now,
      updatedAt: now,
      path: triggered.workflow.path,
      displayTitle: runNameOf(triggered.workflow, payload, {}, triggered.sha, triggered.ref, sender, event),
    };
    repo.workflowRuns.set(record.id, record);
    adopt(record, triggered.workflow, event, payload, triggered.sha, triggered.ref, {});
    fake.webhooks.send({ event: "workflow_run", action: "requested", repo, sender, fields: { workflow_run: workflowRunJson(state, repo, record), workflow: workflowJson(state, repo, workflow) } });
  };

  const hear = ({ event, action, payload }: { event: string; action: string | undefined; payload: Record<string, unknown> }): void => {
    const full = (payload["repository"] as { full_name?: string } | undefined)?.full_name ?? "";
    if (full.toLowerCase() !== options.repo.toLowerCase()) return;
    const sender = (payload["sender"] as { login?: string } | undefined)?.login ?? "ghost";
    if (event === "push" && payload["ref"] === `refs/heads/${repo.defaultBranch}`) syncDefaultBranch();
    const wr = payload["workflow_run"] as { id?: number; event?: string } | undefined;
    if (event === "workflow_run" && action === "requested" && wr?.event === "workflow_dispatch" && !runs.some((r) => r.id === wr.id)) {
      const record = repo.workflowRuns.get(Number(wr.id));
      const workflow = record === undefined ? undefined : repo.workflows.get(record.workflowId);
      const text = record === undefined || workflow === undefined ? undefined : filesAt(repo, record.headSha)?.get(workflow.path);
      if (record !== undefined && workflow !== undefined && text !== undefined) {
        const spec = parseWorkflow(workflow.path, text);
        const inputs = dispatchInputs(spec, record.inputs);
        const ref = `refs/heads/${record.headBranch}`;
        const dispatchPayload = buildWebhookPayload(state, { event: "workflow_dispatch", repo, sender: record.actor, fields: { inputs, ref, workflow: workflow.path } });
        adopt(record, spec, "workflow_dispatch", dispatchPayload, record.headSha, ref, inputs);
      }
    }
    // GitHub's one pull_request activity is two triggers: pull_request and pull_request_target.
    for (const name of event === "pull_request" ? ["pull_request", "pull_request_target"] : [event]) {
      for (const triggered of matchTriggers(repo, name, action, payload)) start(triggered, name, payload, sender);
    }
  };
  const untap = fake.webhooks.tap(hear);

  const pending = (): PlayedRun[] => runs.filter((r) => r.conclusion === undefined);

  const finish = (run: PlayedRun): void => {
    const results = [...run.jobs.values()].map((j: JobRecord) => j.result);
    run.conclusion = results.some((r) => r === "failure") ? "failure" : results.length > 0 && results.every((r) => r === "skipped") ? "skipped" : "success";
    fake.completeWorkflowRun(options.repo, run.id, run.conclusion);
  };

  const runNextJob = async (): Promise<boolean> => {
    const run = pending()[0];
    if (run === undefined) return false;
    const record = repo.workflowRuns.get(run.id);
    if (record !== undefined && record.status === "completed") {
      // Cancelled through the API while queued or between jobs.
      run.conclusion = record.conclusion === "cancelled" ? "cancelled" : "failure";
      return true;
    }
    if (record !== undefined && record.status === "queued") {
      record.status = "in_progress";
      record.updatedAt = state.clock.now();
    }
    await playNextJob(runtime, run);
    if (run.pendingJobs.length === 0 && repo.workflowRuns.get(run.id)?.status !== "completed") finish(run);
    else if (run.pendingJobs.length === 0) run.conclusion = "cancelled";
    return true;
  };

  return {
    get runs() {
      return runs;
    },
    pending,
    runNextJob,
    async runPending() {
      let jobs = 0;
      while (await runNextJob()) jobs++;
      return jobs;
    },
    async runUntilQuiet({ settle, maxRounds = 50 } = {}) {
      for (let round = 0; round < maxRounds; round++) {
        await fake.webhooks.flush();
        await settle?.();
        await fake.webhooks.flush();
        if (pending().length === 0) return;
        while (await runNextJob()) {
          // Deliver what each job caused before the next one runs, as GitHub would while runs queue.
          await fake.webhooks.flush();
        }
      }
      throw new Error(`actions: still pending after ${maxRounds} rounds: ${pending().map((r) => `${r.workflow.name} #${r.id}`).join(", ")}`);
    },
    schedule() {
      const tip = repo.refs.get(`refs/heads/${repo.defaultBranch}`) ?? "";
      for (const spec of workflowsAt(repo, tip).filter((w) => w.on["schedule"] !== undefined)) {
        start({ workflow: spec, sha: tip, ref: `refs/heads/${repo.defaultBranch}`, headBranch: repo.defaultBranch, headSha: tip }, "schedule", buildWebhookPayload(state, { event: "workflow_dispatch", repo, sender: ACTIONS_BOT, fields: { schedule: spec.on["schedule"]?.cron?.[0] ?? "" } }), ACTIONS_BOT);
      }
    },
    close() {
      untap();
      delete state.actions;
    },
  };
}
