/** The shapes shared by the player's run, job and step runners. */
import type { FakeGitHub } from "../../fake-github/create-fake-github.js";
import type { RepoState } from "../../fake-github/state.js";
import type { Value } from "./expression-values.js";
import type { ArtifactStore } from "./artifact-store.js";
import type { JobSpec, PermissionsSpec, WorkflowSpec } from "./parse-workflow.js";

export interface EnvironmentConfig {
  /** Environment secrets (they win over repository secrets of the same name). */
  readonly secrets?: Readonly<Record<string, string>>;
  /**
   * Deployment branches "protected/selected: the default branch only": a job whose run's ref is not
   * the default branch is refused, as GitHub's environment protection rules refuse it.
   */
  readonly defaultBranchOnly?: boolean;
}

export interface PlayerOptions {
  readonly fake: FakeGitHub;
  /** The project's checkout: `action.yml` and `src/action/index.ts` (or `dist/index.js`) of `uses: bosun-dev/bosun@…` and `./`. */
  readonly projectRoot: string;
  /** Run the committed bundle `dist/index.js` instead of `src/action/index.ts` through tsx. */
  readonly useDist?: boolean;
  readonly secrets?: Readonly<Record<string, string>>;
  readonly vars?: Readonly<Record<string, string>>;
  readonly environments?: Readonly<Record<string, EnvironmentConfig>>;
  /** Where workspaces and runner temp folders are made (default: the OS temp folder). */
  readonly workRoot?: string;
  /** Every line a step prints, with its run, job and step (default: kept on the run only). */
  readonly log?: (line: string) => void;
  /** Extra environment every step gets (PATH additions, a stand-in agent's settings...). */
  readonly runnerEnv?: Readonly<Record<string, string>>;
}

export type JobResult = "success" | "failure" | "cancelled" | "skipped";

export interface JobRecord {
  readonly id: string;
  result: JobResult;
  outputs: Record<string, string>;
  /** Why it failed or was skipped, in the player's words. */
  reason?: string;
  /** The step log lines, `[step] line`. */
  readonly log: string[];
  /** Each step's `GITHUB_STEP_SUMMARY`, in order. */
  readonly summaries: string[];
}

/**
 * One workflow as its jobs see it: the run's own file, or a reusable workflow one calling job (one
 * matrix leg of it) called, with that call's inputs and secrets.
 */
export interface JobFrame {
  readonly workflow: WorkflowSpec;
  readonly inputs: Record<string, Value>;
  /** The secrets its jobs see before their environment's: the repository's, inherited, or passed by name. */
  readonly secrets: Readonly<Record<string, string>>;
  /** Put before a job's id to make its key in `PlayedRun.jobs`: "" for the run's file, `item (12, 3) / ` in a call. */
  readonly prefix: string;
  /** The permissions of a job that names none: the workflow's, else (in a call) the calling job's. */
  readonly permissions: PermissionsSpec | undefined;
  /** 0 for the run's file, 1 in a reusable workflow it calls... (GitHub allows four levels in all). */
  readonly depth: number;
  /**
   * In a called workflow, the secret names its caller passed (`inherit`: all). Its jobs' environment
   * secrets resolve only for those: GitHub resolves an environment secret in a called job to "" when
   * the caller passed nothing for it, and the run does not error
   * (https://github.com/actions/runner/issues/4453). Absent in the run's own file: all resolve.
   */
  readonly passedSecrets?: "inherit" | readonly string[];
}

/** A job made of other jobs: a matrix job (its legs) or one call of a reusable workflow (the called jobs). */
export interface JobGroup {
  /** Its key in `PlayedRun.jobs`, where its aggregated record goes once its last member has been played. */
  readonly key: string;
  readonly kind: "matrix" | "call";
  /** The keys of its members, in the order they run. */
  readonly members: string[];
  /** `strategy.fail-fast` of a matrix. */
  readonly failFast: boolean;
  /** The member (leg) whose failure cancels the other legs (fail-fast). */
  trippedBy?: string;
  /** A call: the called workflow, whose `on.workflow_call.outputs` become the group's outputs. */
  readonly frame?: JobFrame;
}

/** A job waiting in a run, with where it sits: its frame, its matrix leg, the groups it belongs to. */
export interface QueuedJob {
  readonly spec: JobSpec;
  /** Its key in `PlayedRun.jobs`: `check`, `build (linux, 18)`, `item (12, 3) / check`. */
  readonly key: string;
  readonly frame: JobFrame;
  /** `matrix` and `strategy` contexts (null outside a matrix). */
  readonly matrix: Value;
  readonly strategy: Value;
  /** The job's `if:` was already evaluated (once for the whole matrix, before its legs exist). */
  readonly conditionChecked: boolean;
  /** Innermost last: each group this job is part of, and which member of it the job is or is inside. */
  readonly groups: readonly { readonly group: JobGroup; readonly member: string }[];
}

export interface PlayedRun {
  readonly id: number;
  readonly repo: RepoState;
  readonly fullName: string;
  readonly workflow: WorkflowSpec;
  readonly event: string;
  readonly payload: Record<string, unknown>;
  readonly sha: string;
  readonly ref: string;
  readonly actor: string;
  readonly inputs: Record<string, Value>;
  /** Played jobs by key (see `QueuedJob.key`), and the aggregated record of each matrix job and call. */
  readonly jobs: Map<string, JobRecord>;
  /** Jobs not started yet, in the order they will run (a matrix job or a call is expanded when it comes up). */
  readonly pendingJobs: QueuedJob[];
  conclusion?: "success" | "failure" | "cancelled" | "skipped";
}

export interface PlayerRuntime {
  readonly options: PlayerOptions;
  readonly artifacts: ArtifactStore;
  /** Mints a job's GITHUB_TOKEN with exactly these permissions; revoked when the job ends. */
  mintJobToken(run: PlayedRun, scopes: Readonly<Record<string, "read" | "write">>): string;
  revokeToken(token: string): void;
}
