import type { Context } from "probot";

/** The installation-authenticated client Probot hands each event (`context.octokit`). */
export type AppOctokit = Context["octokit"];

export { repoKey, type RepoRef } from "../adapters/github/repo-ref.js";
