import type { DispatchConfig } from "../../../core/config/bosun-config.js";
import type { GateFact } from "../../../core/engine/decide-step.js";
import type { ApprovalFacts } from "../../../core/scheduler/tick-facts.js";
import type { GateCheckRun } from "./gate-of-check-run.js";

/** A pull request as the listing and the `pull_request` webhook both show it (the fields the tick reads). */
export interface HeardPull {
  readonly number: number;
  readonly state: string;
  readonly body?: string | null;
  readonly updated_at: string;
  readonly created_at?: string;
  readonly merged_at: string | null;
  readonly merge_commit_sha?: string | null;
  readonly head: { readonly ref: string; readonly sha: string; readonly repo: { readonly full_name: string } | null };
  readonly user: { readonly login: string } | null;
}

/** An issue as a listing (or a read) shows it. */
export interface ListedIssue {
  readonly number: number;
  readonly title: string;
  readonly body: string;
  readonly labels: readonly string[];
  readonly author: string;
  /** ms */
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly comments: number;
  readonly open: boolean;
  readonly completed: boolean;
}

/** An issue's body with the time it was last edited (ms; null: never edited). */
export interface BodyEdit {
  readonly body: string;
  readonly editedAt: number | null;
}

/**
 * A workflow run as listed — as its first attempt ended or stands: a re-run (anyone with write can
 * start one) shows a later attempt in the listing, which never speaks for the item (`first-attempt.ts`).
 */
export interface RunView {
  readonly id: number;
  readonly status: string;
  readonly conclusion: string | null;
  readonly displayTitle: string;
  readonly url: string;
  /** ms */
  readonly createdAt: number;
  /** When GitHub last changed it (its first attempt), ms: for a completed run, about when it ended. */
  readonly updatedAt?: number;
  /** Who started its first attempt: only runs the App dispatched speak for an item. */
  readonly actor: string;
  readonly headSha: string;
  /** Who started the run's latest attempt, when it was re-run (that attempt's end is not believed). */
  readonly rerunBy?: string;
}

/** A pull request linked to an item (`Closes #n` in its body, or a branch named for it). */
export interface PullLink {
  readonly number: number;
  readonly state: "open" | "merged" | "closed";
  readonly head: string;
  readonly mergeSha?: string;
  /** Its head is Bosun's own branch for the item (`bosun/<n>-…`) in this repository. */
  readonly bosunBranch: boolean;
  readonly author: string;
  /** When it was opened (GitHub's clock, ms), where known. */
  readonly createdAt?: number;
}

/** Bosun's comments on an issue: its latest snapshot (by hash) and its status comment. */
export interface BotComments {
  readonly snapshot?: { readonly id: number; readonly hash: string };
  readonly status?: { readonly id: number; readonly body: string };
}

/**
 * What the tick reads from GitHub (declared here, by the executor that uses it). List reads are
 * conditional: an unchanged answer is a 304, which costs no rate limit.
 */
export interface TickReads {
  /** Open issues carrying the approval label, with their bodies. */
  listApproved(label: string): Promise<readonly ListedIssue[]>;
  /**
   * The most recently updated closed issues carrying the approval label, one page (conditional):
   * where several items whose life is not over left the open listing at once (a merge closes its
   * issue), one read finds most of them.
   */
  listClosedApproved(label: string): Promise<readonly ListedIssue[]>;
  /** One issue read fresh (an item in flight the listing missed, a blocker); undefined when gone. */
  issue(n: number): Promise<ListedIssue | undefined>;
  /** The issue's approval as its events say now, and whether its actor may approve. */
  approval(n: number, label: string, mayApprove: (login: string) => Promise<string | undefined>): Promise<ApprovalFacts>;
  /**
   * Several issues' approvals (as `approval` reads each): from the repository's newest issue events,
   * in one conditional read, for every issue whose latest event of the label it shows; the rest
   * each from its own events. Answers every issue asked.
   */
  approvals(wanted: ReadonlyArray<{ readonly n: number; readonly mayApprove: (login: string) => Promise<string | undefined> }>, label: string): Promise<ReadonlyMap<number, ApprovalFacts>>;
  /**
   * Issues' bodies and when each was last edited (GraphQL `lastEditedAt`, null: never), each body
   * read together with its edit time so the one goes with the other — all of them in one query.
   * An issue whose pair could not be read is missing from the answer.
   */
  bodyEdits(numbers: readonly number[]): Promise<ReadonlyMap<number, BodyEdit>>;
  /** A collaborator's role (`role_name`), `none` when not one. */
  role(login: string): Promise<string>;
  /** Runs started by workflow_dispatch, newest first: the first page, and further pages while `enough` says some are missing. */
  listRuns(enough: (runs: readonly RunView[]) => boolean): Promise<readonly RunView[]>;
  /** The run this process's own dispatch of the item and epoch answered, if any. */
  knownRunId(n: number, epoch: number): number | undefined;
  /** Pull requests linked to items, by issue number (the most recently updated ones). */
  linkedPulls(): Promise<ReadonlyMap<number, readonly PullLink[]>>;
  /** One pull request by number (one a record names that the listing no longer shows); undefined when gone. */
  pull(number: number): Promise<PullLink | undefined>;
  /** The gate's verdict on a commit, from `bosun/gate` check runs the App posted; undefined while none. */
  gateVerdict(sha: string): Promise<GateFact | undefined>;
  /**
   * A `check_run` webhook for the gate (its payload signed by GitHub with the webhook secret, its
   * `app` set by GitHub): the App's own completed verdict is taken as read; its started run drops
   * what was known of that commit; anyone else's run changes nothing. Answers whether the run is
   * now what is known of its commit (false: not the App's, or older than a run already known).
   */
  heardGate(run: GateCheckRun): boolean;
  /**
   * The head of pull request `number` as a listing still fresh (or a webhook since) shows it, and
   * the pull request's `updated_at` there (a push moves it), without a request (undefined: not known).
   */
  knownHead(number: number): { readonly sha: string; readonly updatedAt: string } | undefined;
  /** Why a grant would duplicate work under way (an open pull request of someone else's, or a branch named for the item), or null. */
  evidence(n: number, neverClaimed: boolean): Promise<string | null>;
  /**
   * Bosun's snapshot and status comments on the issue: `fresh` reads them now (before creating
   * one, the guard against a second); otherwise what this process last read or wrote will do.
   */
  botComments(n: number, fresh: boolean): Promise<BotComments>;
  /**
   * Reads Bosun's comments on the issues this process does not know yet, all in one query, so that
   * `botComments(n, false)` answers from what it read: before grants, whose writer must know the
   * snapshot is there. Best effort: an issue it could not read whole is read on its own when asked.
   */
  readBotComments(numbers: readonly number[]): Promise<void>;
  /**
   * A `pull_request` webhook's pull request (the payload GitHub signs): the listing this process
   * keeps is mended with it rather than read again. With no listing fresh enough, nothing: the
   * next tick lists.
   */
  heardPull(pr: HeardPull): void;
  /** Pull requests or branches changed (a webhook said so): list them again next time. */
  invalidate(what: "pulls" | "branches"): void;
}

/** What the tick changes on GitHub besides the claim refs. */
export interface TickWrites {
  setLabels(n: number, labels: readonly string[]): Promise<void>;
  /** Posts a comment and answers its id. */
  comment(n: number, body: string): Promise<number>;
  updateComment(id: number, body: string): Promise<void>;
  closeIssue(n: number): Promise<void>;
  /** Hands a granted item to its pool's agent; the workflow kind answers with its run. */
  dispatch(n: number, dispatch: DispatchConfig, inputs: { item: string; epoch: number; briefHash: string; instruction: string }): Promise<{ runId?: number; url?: string }>;
  /** Hands several granted items of a `batch` workflow pool to one run (a matrix leg each). */
  dispatchBatch(dispatch: Extract<DispatchConfig, { kind: "workflow" }>, items: ReadonlyArray<{ item: string; epoch: number; briefHash: string }>): Promise<{ runId?: number; url?: string }>;
}

export type TickGitHub = TickReads & TickWrites;
