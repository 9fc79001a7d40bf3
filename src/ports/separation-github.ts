import type { PushRecord } from "../core/separation/pushers-of.js";
import type { CommentFacts, CommitFacts, PermissionAnswer, ReviewFacts } from "../core/separation/separation-facts.js";
import type { ClaimReader } from "./gate-github.js";

/** The pull request as the separation rule reads it. */
export interface SeparationPull {
  readonly number: number;
  readonly headSha: string;
  readonly headRef: string;
  /** The `owner/name` of the repository the head branch lives in (a fork's for a fork's PR); undefined when it is gone. */
  readonly headRepo?: string;
  readonly baseRef: string;
  readonly defaultBranch?: string;
  readonly author: string;
  /** The author's account type is Bot. */
  readonly authorIsBot: boolean;
  readonly body: string | null;
  readonly labels: readonly string[];
  /** The commit count the pull request object reports (the list stops at 250). */
  readonly commitCount: number;
}

/** What the separation mode reads of one pull request; declared here, where it is used. */
export interface SeparationReader {
  pull(number: number): Promise<SeparationPull>;
  commits(number: number): Promise<CommitFacts[]>;
  reviews(number: number): Promise<ReviewFacts[]>;
  comments(number: number): Promise<CommentFacts[]>;
  /** GitHub's record of changes to a branch of a repository (`owner/name`), newest first, with who made each. */
  pushes(repo: string, branch: string): Promise<PushRecord>;
}

/** What it reads of the repository around the pull request (and Bosun's claim record of the item). */
export interface RepoReader extends ClaimReader {
  permission(login: string): Promise<PermissionAnswer>;
  openPulls(): Promise<{ number: number; headSha: string; baseRef: string }[]>;
  /** The author of an issue, or undefined when there is no such issue. */
  issueAuthor(issue: number): Promise<string | undefined>;
  /** Everyone who ever added `label` to an issue, from its event list. */
  issueLabelers(issue: number, label: string): Promise<string[]>;
}

/** Posts a commit status (statuses attach to SHAs, not pull requests). */
export interface StatusWriter {
  setStatus(sha: string, status: { state: "success" | "pending" | "failure" | "error"; context: string; description: string; targetUrl?: string }): Promise<void>;
}
