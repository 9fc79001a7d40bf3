import type { BriefSnapshot } from "../../core/brief/snapshot.js";
import type { DispatchConfig } from "../../core/config/bosun-config.js";
import type { RunCost } from "../../core/journal/run-cost.js";
import type { Stop } from "../../core/stop/stop.js";

/** An open issue carrying the queued label, as the tick sees it. */
export interface QueueIssue {
  readonly number: number;
  readonly title: string;
  readonly labels: readonly string[];
  /** ms since the epoch. */
  readonly createdAt: number;
  readonly updatedAt: number;
  /** How many comments the issue has: a new snapshot is a new comment. */
  readonly comments: number;
}

export interface WorkflowRunView {
  readonly id: number;
  readonly status: string;
  readonly conclusion: string | null;
  readonly displayTitle: string;
  readonly url: string;
  /** When GitHub created the run, ms (a run named for an epoch must postdate its grant). */
  readonly createdAt?: number;
  /** The commit the run was dispatched at: where its land job posts its `bosun/work` record. */
  readonly headSha?: string;
}

/** What a `work` run's land job recorded about it: the stop it landed and what the run cost. */
export interface WorkRecord {
  readonly stop: Stop;
  readonly cost?: RunCost;
}

/**
 * One run's record as read back, with why each check run looked at was not believed (and why a
 * cost was left out, when it did not validate), for the dashboard to show.
 */
export type WorkRecordRead = { readonly record: WorkRecord; readonly ignored: readonly string[] } | { readonly ignored: readonly string[] };

/** A pull request linked to an item (by `Closes #n` in its body or a `bosun/<n>` branch). */
export interface PullLink {
  readonly number: number;
  readonly state: "open" | "merged" | "closed";
  /** Its head is Bosun's own branch for the item (`bosun/<n>-…`) in this repository: an earlier attempt's. */
  readonly bosunBranch?: true;
}

/** What the reconcile tick reads from GitHub; reads that can answer 304 return undefined for "unchanged". */
export interface SchedulerReads {
  listQueued(label: string): Promise<readonly QueueIssue[]>;
  /**
   * The bot's snapshot of the issue's brief, or why there is none. `inFlight`: the item is claimed,
   * so the snapshot it was dispatched with stands (label changes since then need no re-read).
   * `uncached`: read the comments whatever this process knows (a possible re-approval is judged
   * from GitHub, never from a read that may have been stale).
   */
  snapshot(issue: QueueIssue, inFlight?: boolean, uncached?: boolean): Promise<{ ok: true; snapshot: BriefSnapshot; commentId: number; body: string } | { ok: false; reason: string }>;
  /** Reads ahead, in few requests, the snapshots of queued issues this process does not know yet. */
  prefetchSnapshots(issues: readonly QueueIssue[], label: string): Promise<void>;
  /** An issue as it is now (read fresh), whether it is open, and whether it was closed as completed; undefined when gone. */
  issueNow(issue: number): Promise<(QueueIssue & { open: boolean; completed: boolean }) | undefined>;
  /** Whether an issue is open (a `#n` blocker outside the queue). */
  isOpen(issue: number): Promise<boolean>;
  /**
   * Runs started by workflow_dispatch, newest first: the first page, and further pages (up to 10)
   * while `enough` says runs are still missing.
   */
  listRuns(enough?: (runs: readonly WorkflowRunView[]) => boolean): Promise<readonly WorkflowRunView[]>;
  /** The run id the dispatch of this item at this epoch answered, when this process dispatched it. */
  knownRunId(issue: number, epoch: number): number | undefined;
  /** The `bosun/work` record the run's land job posted for this item and epoch (read when landing a run, never on an idle tick). */
  workRecord(issue: number, epoch: number, run: WorkflowRunView): Promise<WorkRecordRead>;
  /** Pull requests linked to items, by issue number (may be a listing up to the evidence max age old). */
  linkedPulls(): Promise<ReadonlyMap<number, readonly PullLink[]>>;
  /**
   * Why a grant would duplicate work already under way, or undefined: an open pull request linked
   * to the issue, or — for an item Bosun never claimed — a branch named for it.
   */
  evidenceOf(issue: number, neverClaimed: boolean): Promise<string | undefined>;
  /** A webhook said pull requests or branches changed: the next read lists them again. */
  invalidate(what: "pulls" | "branches"): void;
}

/** What the tick changes on GitHub. */
export interface SchedulerWrites {
  addLabels(issue: number, labels: readonly string[]): Promise<void>;
  /** Replaces the issue's labels (one request instead of several removes and adds). */
  setLabels(issue: number, labels: readonly string[]): Promise<void>;
  removeLabel(issue: number, label: string): Promise<void>;
  updateComment(commentId: number, body: string): Promise<void>;
  /** Hands a claimed item to its pool's agent; the workflow kind answers with its run. */
  dispatch(issue: number, dispatch: DispatchConfig, inputs: { item: string; epoch: number; briefHash: string; instruction: string }): Promise<{ runId?: number; url?: string }>;
}

export type SchedulerGitHub = SchedulerReads & SchedulerWrites;
