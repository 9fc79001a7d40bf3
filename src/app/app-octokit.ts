import type { Context } from "probot";

/** The installation-authenticated client Probot hands each event (`context.octokit`). */
export type AppOctokit = Context["octokit"];

/** A repository by owner and name, as every REST route takes it. */
export interface RepoRef {
  readonly owner: string;
  readonly repo: string;
}

/** `owner/name`, lower-cased: the key of every per-repository cache. */
export function repoKey(ref: RepoRef): string {
  return `${ref.owner}/${ref.repo}`.toLowerCase();
}

/** The HTTP status of an Octokit error, if it has one. */
export function statusOf(error: unknown): number | undefined {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === "number" ? status : undefined;
}
