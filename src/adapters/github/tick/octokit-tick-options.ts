import type { Octokit } from "@octokit/rest";

export interface OctokitTickOptions {
  readonly owner: string;
  readonly repo: string;
  /** The App's bot login (`bosun[bot]`): its comments and check runs are Bosun's. */
  readonly botLogin: string;
  /** Where workflow dispatches run unless a pool names a ref. */
  readonly defaultBranch: string;
  /** The clock (ms), for how old a cached listing or role is. */
  readonly now: () => number;
  /** How long the pull request and branch listings are reused (a webhook about either drops them at once). */
  readonly evidenceMaxAgeMs?: number;
  /**
   * How long a head met without a verdict waits for the gate's `check_run` webhook before its
   * check runs are read (default 0: read at once). Only a process that hears those webhooks (the
   * App) sets it; one that does not (the Action's schedule mode) must read.
   */
  readonly gateHeardWaitMs?: number;
  /** A user-to-server client for `assign` to Copilot, which refuses installation tokens. */
  readonly copilot?: Octokit;
}
