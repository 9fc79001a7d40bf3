/** The shapes shared by the player's run, job and step runners. */
import type { FakeGitHub } from "../../fake-github/create-fake-github.js";
import type { RepoState } from "../../fake-github/state.js";
import type { Value } from "./expression-values.js";
import type { ArtifactStore } from "./artifact-store.js";
import type { JobSpec, WorkflowSpec } from "./parse-workflow.js";

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
  readonly jobs: Map<string, JobRecord>;
  /** Jobs not started yet, in the order they will run. */
  readonly pendingJobs: JobSpec[];
  conclusion?: "success" | "failure" | "cancelled" | "skipped";
}

export interface PlayerRuntime {
  readonly options: PlayerOptions;
  readonly artifacts: ArtifactStore;
  /** Mints a job's GITHUB_TOKEN with exactly these permissions; revoked when the job ends. */
  mintJobToken(run: PlayedRun, scopes: Readonly<Record<string, "read" | "write">>): string;
  revokeToken(token: string): void;
}
