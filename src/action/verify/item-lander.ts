/** Labels the verify mode sets (DESIGN.md, "Labels"); move to the shared labels module once there is one. */
export const DONE_LABEL = "bosun:done";
export const NEEDS_HUMAN_LABEL = "bosun:needs-human";

/** A merged pull request in the deployed range: what landing needs to know of it. */
export interface MergedPull {
  readonly number: number;
  readonly body: string | null;
}

/** How the verify mode finds and lands the items a deployment carried; declared by its consumer. */
export interface ItemLander {
  /**
   * The SHA of the newest deployment to `environment` before `beforeDeploymentId` (any, when
   * undefined) whose latest status is success: the start of the deployed range.
   */
  previousDeployedSha(environment: string, beforeDeploymentId: number | undefined): Promise<string | undefined>;
  /** Merged pull requests with a commit in `base...head` (just `head` when there is no base). */
  mergedPullsInRange(base: string | undefined, head: string): Promise<readonly MergedPull[]>;
  /** Comments the evidence, labels `bosun:done` and closes the issue as completed. */
  landItem(issue: number, comment: string): Promise<void>;
  /** Comments the reason and labels `bosun:needs-human`; the issue's open/closed state is left alone. */
  markNeedsHuman(issue: number, comment: string): Promise<void>;
}
