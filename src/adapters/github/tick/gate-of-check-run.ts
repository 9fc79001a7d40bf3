import type { GateFact } from "../../../core/engine/decide-step.js";
import { parseGateCheckMarker } from "../../../core/journal/gate-check-marker.js";
import { normalizeLogin } from "../../../core/separation/identity.js";

/** A `bosun/gate` check run as the REST listing and the `check_run` webhook both show it. */
export interface GateCheckRun {
  readonly id: number;
  readonly head_sha: string;
  readonly status: string | null;
  readonly app?: { readonly slug?: string | null } | null;
  readonly output?: { readonly title?: string | null; readonly summary?: string | null } | null;
  /** When the run ended: what its payload's `pull_requests` show is as of then. */
  readonly completed_at?: string | null;
  /**
   * Open pull requests whose head is this commit, as GitHub lists them in the payload — those of
   * other repositories too (a fork's pull request from this repository's branch): only one whose
   * base is this repository is one of its own (`base.repo.url`).
   */
  readonly pull_requests?: ReadonlyArray<{ readonly number: number; readonly head: { readonly sha: string }; readonly base?: { readonly repo?: { readonly url?: string } | null } | null }> | null;
}

/**
 * What one check run says about a commit: a verdict only when the Bosun App itself posted it
 * (GitHub sets `app`; `github-actions` is every workflow, including those a pull request edits),
 * it is completed, and its marker names this very commit; `undefined` otherwise.
 */
export function gateOfCheckRun(run: GateCheckRun, sha: string, bot: string): GateFact | undefined {
  if (!isBosunsRun(run, bot) || run.status !== "completed" || run.head_sha !== sha) return undefined;
  const parsed = parseGateCheckMarker(run.output?.summary ?? "");
  if (!parsed.ok || parsed.marker.sha !== sha) return undefined;
  const m = parsed.marker;
  return { verdict: m.verdict, sha, reason: m.reason ?? run.output?.title ?? m.verdict, ...(m.verdict === "fail" ? { failure: m.failure ?? "refuse" } : {}) };
}

/** Whether the Bosun App posted the run (by the app GitHub records, never by the run's name or text). */
export const isBosunsRun = (run: GateCheckRun, bot: string): boolean => normalizeLogin(run.app?.slug ?? "") === bot;
