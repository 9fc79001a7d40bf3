/** One result of `bosun doctor`: a check, its answer, and for a problem the fix. */

/** The checks, in the order doctor reports them. */
export const SETUP_CHECKS = ["app-installed", "app-permissions", "config", "labels", "workflows", "environment", "environment-secrets", "required-checks"] as const;
export type SetupCheckId = (typeof SETUP_CHECKS)[number];

/** Passed, failed, or could not be judged from what GitHub answered (never counted as passed). */
export type SetupStatus = "ok" | "problem" | "could-not-check";

export interface SetupFinding {
  readonly check: SetupCheckId;
  readonly status: SetupStatus;
  /** What it is about, when a check has several (a workflow file, a required check). */
  readonly subject?: string;
  readonly message: string;
  /** For a problem or a could-not-check: what to do. */
  readonly fix?: string;
}

export const ok = (check: SetupCheckId, message: string, subject?: string): SetupFinding => ({ check, status: "ok", message, ...(subject === undefined ? {} : { subject }) });
export const problem = (check: SetupCheckId, message: string, fix: string, subject?: string): SetupFinding => ({ check, status: "problem", message, fix, ...(subject === undefined ? {} : { subject }) });
export const couldNotCheck = (check: SetupCheckId, message: string, fix: string, subject?: string): SetupFinding => ({ check, status: "could-not-check", message, fix, ...(subject === undefined ? {} : { subject }) });

/**
 * A read GitHub did not answer, as a could-not-check: what was read and the status it got; the fix
 * is `whenRefused` (what the token lacks) for 401, 403 and 404, else to try again.
 */
export function refusal(what: string, read: { readonly status: number | null; readonly detail: string }, whenRefused: string): { message: string; fix: string } {
  const answer = read.status === null ? `no answer (${read.detail})` : `HTTP ${read.status}${read.detail === "" ? "" : ` (${read.detail})`}`;
  const refused = read.status === 401 || read.status === 403 || read.status === 404;
  return { message: `could not read ${what}: GitHub answered ${answer}`, fix: refused ? whenRefused : "GitHub did not answer as expected: run doctor again (githubstatus.com shows outages)" };
}
