/** What a step runner gets, and what it answers. */
import type { ExpressionScope } from "./evaluate-expression.js";
import type { JobSpec } from "./parse-workflow.js";
import type { PlayedRun, PlayerRuntime } from "./player-types.js";

export interface StepContext {
  readonly runtime: PlayerRuntime;
  readonly run: PlayedRun;
  readonly job: JobSpec;
  /** `uses` or `run`, for messages. */
  readonly label: string;
  /** The step's `with:`, evaluated. */
  readonly inputs: Readonly<Record<string, string>>;
  /** The step's process environment: the runner's, then workflow, job and step `env:`. */
  readonly env: Readonly<Record<string, string>>;
  readonly scope: ExpressionScope;
  readonly workspace: string;
  readonly runnerTemp: string;
  /** The job's GITHUB_TOKEN. */
  readonly githubToken: string;
  log(line: string): void;
  /** A value the runner masks from now on (a minted token). */
  addMask(value: string): void;
}

export interface StepOutcome {
  readonly ok: boolean;
  readonly outputs: Readonly<Record<string, string>>;
  /** Why it failed, in the runner's words. */
  readonly message?: string;
  /** Lines a later step's env gains (`GITHUB_ENV`). */
  readonly env?: Readonly<Record<string, string>>;
  /** The step's job summary, if it wrote one. */
  readonly summary?: string;
}

export const failed = (message: string): StepOutcome => ({ ok: false, outputs: {}, message });

/** A GET to the fake with a token, answering the status and the JSON body. */
export async function apiGet(ctx: StepContext, path: string, token: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${ctx.runtime.options.fake.url}${path}`, { headers: { authorization: `token ${token}`, accept: "application/vnd.github+json" } });
  const text = await res.text();
  return { status: res.status, body: text === "" ? {} : (JSON.parse(text) as Record<string, unknown>) };
}
