/** A person as a commit names them: login (when GitHub matched one), email, name. */
export interface CommitPerson {
  readonly login?: string | null;
  readonly email?: string | null;
  readonly name?: string | null;
}

export interface CommitFacts {
  readonly sha: string;
  readonly author: CommitPerson;
  readonly committer: CommitPerson;
  readonly message: string;
}

export interface ReviewFacts {
  readonly login: string;
  readonly state: "APPROVED" | "CHANGES_REQUESTED" | "COMMENTED" | "DISMISSED" | "PENDING";
  readonly commitId: string;
  /** ISO 8601; orders reviews and `/approve` comments on one timeline. */
  readonly at: string;
  readonly association: string;
  /** The reviewer's account type is Bot (GitHub's `user.type`). */
  readonly isBot?: boolean;
}

export interface CommentFacts {
  readonly login: string;
  readonly body: string;
  readonly at: string;
  /** When it was last edited (the API's updated_at); a comment edited after it was written is not an approval. */
  readonly updatedAt?: string;
  readonly association: string;
}

import type { PushRecord } from "./pushers-of.js";

/** Everything the separation rule reads of a pull request, gathered by the edge. */
export interface SeparationFacts {
  readonly headSha: string;
  readonly author: string;
  /** The PR author's account type is Bot (GitHub's `user.type`). */
  readonly authorIsBot?: boolean;
  /**
   * Who asked for the work, from Bosun's record of the item (its author, whoever added the
   * approval label), plus the authors of issues the PR links: excluding one too many is the safe error.
   */
  readonly requesters: readonly Requester[];
  readonly commits: readonly CommitFacts[];
  /**
   * GitHub's record of pushes to the head branch: who moved it, whatever the commits say (their
   * author and committer are whatever the pusher wrote). Undefined when it could not be read.
   */
  readonly pushes: PushRecord | undefined;
  /** False when the commit list could not be read whole (GitHub lists at most 250). */
  readonly commitsComplete: boolean;
  readonly reviews: readonly ReviewFacts[];
  readonly comments: readonly CommentFacts[];
  readonly dispatchedByBosun: boolean;
  /** Other open pull requests to a protected base with the same head SHA. */
  readonly siblings: readonly number[];
}

/** Someone who asked for or approved the work, and how we know. */
export interface Requester {
  readonly login: string;
  readonly why: string;
}

/** The configured side: agent identities (logins or emails), excluded approvers, approvals needed. */
export interface SeparationPolicy {
  readonly agents: readonly string[];
  readonly excluded: readonly string[];
  readonly required: number;
  /** Logins whose own PRs need no approvals when nothing marks them agent work (input `human-authors`); empty by default. */
  readonly humans?: readonly string[];
}

/** A repository permission as the REST API answers it, or `error` when it could not be read. */
export type PermissionAnswer = "admin" | "maintain" | "write" | "triage" | "read" | "none" | "error";
