import type { ChangedFile } from "../core/gate/changed-file.js";
import type { CommitFacts, PermissionAnswer } from "../core/separation/separation-facts.js";

/** The pull request as the gate reads it: head, base, link hints and the totals it reports. */
export interface PullFacts {
  readonly number: number;
  readonly headSha: string;
  readonly baseSha: string;
  readonly headRef: string;
  /** The `owner/name` of the repository the head branch lives in (a fork's for a fork's PR); undefined when that repository is gone. */
  readonly headRepo?: string;
  /** Who opened it. */
  readonly author?: string;
  /** The branch the PR merges into, and the repository's default branch (the gate judges only PRs into a protected one). */
  readonly baseRef?: string;
  readonly defaultBranch?: string;
  /** The head is in another repository than the base (a fork), or its repository is gone. */
  readonly fromFork: boolean;
  readonly body: string | null;
  readonly labels: readonly string[];
  readonly additions: number;
  readonly deletions: number;
  readonly changedFiles: number;
}

/** A comment as the brief lookup needs it: who wrote it, what it says, and whether it was edited since. */
export interface IssueComment {
  readonly id: number;
  readonly author: string;
  readonly body: string;
  /** ISO times as the API gives them; `updatedAt` later than `createdAt` means someone edited it. */
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** What a claim ref says of an item, as far as the gate and separation need it (Bosun's own record). */
export interface ItemClaim {
  readonly ref: string;
  /** The claim key the record was written for (the brief's claim_key), when the record names one. */
  readonly key?: string;
  readonly state: string;
  readonly epoch: number;
  /** The snapshot hash recorded when the item was granted; absent on records written before brief hashes. */
  readonly briefHash?: string;
  /** The claim commit's sha, and who wrote it as far as GitHub vouches: the author of a verified (GitHub-signed) commit, else undefined. */
  readonly sha: string;
  readonly signedBy: string | undefined;
}

/** Reads Bosun's claim record of one item; declared by its users (the gate and separation). */
export interface ClaimReader {
  /** The record on a claim ref (`refs/bosun/claims/<n>`), or undefined when the ref does not exist. */
  claimRecord(ref: string): Promise<ItemClaim | undefined>;
}

/** A workflow run as the gate checks a named acceptance run. */
export interface WorkflowRunFacts {
  readonly path: string;
  readonly event: string;
  readonly headSha: string;
  readonly headBranch?: string;
  readonly headRepo?: string;
}

/** A pull request from some head branch, open or closed, as the pulls list gives it. */
export interface PullOfBranch {
  readonly number: number;
  readonly baseRef: string;
  readonly state: string;
}

/** What GitHub records of a head branch's pull requests; declared here, where the gate ties a run to its PR. */
export interface BranchHistoryReader {
  /** Every pull request ever opened from `owner:branch`, closed ones too (`GET /pulls?state=all&head=`), at most `limit + 1`. */
  pullsFromHead(owner: string, branch: string, limit: number): Promise<PullOfBranch[]>;
  /** When each change of a pull request's base was made (its `base_ref_changed` issue events), oldest first. */
  baseChanges(number: number): Promise<string[]>;
}

/** What the gate reads from GitHub; declared here, where it is used (adapters implement it). */
export interface GateReader extends ClaimReader, BranchHistoryReader {
  /** A workflow run, or undefined when there is none with that id. */
  workflowRun(id: number): Promise<WorkflowRunFacts | undefined>;
  /** Who may dispatch the gate by hand is checked through the repository permission API. */
  permission(login: string): Promise<PermissionAnswer>;
  commits(number: number): Promise<CommitFacts[]>;
  pull(number: number): Promise<PullFacts>;
  /** The PR's files as the API lists them (at most 3,000). */
  files(number: number): Promise<ChangedFile[]>;
  issueComments(issue: number): Promise<IssueComment[]>;
  /** A file's text at a commit, or undefined when it does not exist there. */
  fileAt(path: string, sha: string): Promise<string | undefined>;
}

/** One check-run annotation in GitHub's terms. */
export interface CheckAnnotation {
  readonly path: string;
  readonly start_line: number;
  readonly end_line: number;
  readonly annotation_level: "notice" | "warning" | "failure";
  readonly message: string;
}

/** What the gate writes: one check run, created with the first batch of annotations, updated with the rest. */
export interface CheckRunWriter {
  createCheckRun(input: { name: string; headSha: string; conclusion: "success" | "failure"; title: string; summary: string; detailsUrl?: string; annotations: readonly CheckAnnotation[] }): Promise<number>;
  addAnnotations(id: number, input: { title: string; summary: string; annotations: readonly CheckAnnotation[] }): Promise<void>;
}
