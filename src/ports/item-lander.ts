/** Why a range with no earlier deployment is incomplete: only its head commit could be read. */
export const NO_BASE_REASON = "no earlier successful deployment to compare with: only the head commit was examined";

/** A merged pull request in the deployed range: what landing needs to know of it. */
export interface MergedPull {
  readonly number: number;
  readonly body: string | null;
}

/** Commits of a deployed range that were not looked at, and why: never dropped without a count. */
export interface Unexamined {
  /** How many commits were not examined; undefined when the range itself is unknown. */
  readonly commits: number | undefined;
  readonly reason: string;
  /**
   * Merged pull requests that could still be named in the unexamined commits (their merge commit
   * is one of them): their items are sent to a human, never closed unexamined.
   */
  readonly pulls?: readonly MergedPull[];
}

/** The merged pull requests found in a range, and what of the range was not examined. */
export interface RangePulls {
  readonly pulls: readonly MergedPull[];
  readonly unexamined?: Unexamined;
}

/** How the verify mode finds and lands the items a deployment carried; declared by its consumer. */
export interface ItemLander {
  /**
   * The SHA of the newest deployment to `environment` before `beforeDeploymentId` (any, when
   * undefined) that one of `deployers` created, with a success status one of them posted and a
   * latest status of success (or inactive): the start of the deployed range. Anyone else's
   * deployment is passed over: it would move the range.
   */
  previousDeployedSha(environment: string, beforeDeploymentId: number | undefined, deployers: readonly string[]): Promise<string | undefined>;
  /**
   * Merged pull requests with a commit in `base...head` (just `head` when there is no base), and
   * a count of the commits it did not examine (a range past the read bound, or no base at all).
   */
  mergedPullsInRange(base: string | undefined, head: string): Promise<RangePulls>;
  /** Comments the evidence, labels `bosun:done` and closes the issue as completed. */
  landItem(issue: number, comment: string): Promise<void>;
  /** Comments the reason and labels `bosun:needs-human`; the issue's open/closed state is left alone. */
  markNeedsHuman(issue: number, comment: string): Promise<void>;
}
