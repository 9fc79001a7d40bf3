/** The fake's whole world as plain data; handlers are free functions that take it first. */
import type { Clock } from "./clock.js";
import type { RepoSetupRecords } from "./setup-records.js";

export type Permission = "admin" | "maintain" | "write" | "triage" | "read" | "none";

/**
 * What an installation token may do per permission scope (`contents`, `issues`, `pull_requests`,
 * `checks`, `statuses`, `deployments`, `actions`, ...). A token without scopes is limited by its
 * login's repository permission alone.
 */
export type ScopeLevel = "read" | "write";

/** A status check a branch requires; `appId` non-null: only that GitHub App's report satisfies it. */
export interface RequiredCheck {
  context: string;
  appId: number | null;
}

/** Who a token speaks for: a user, an app installation's bot, or the app itself (JWT). */
export type Identity =
  | { kind: "user"; login: string }
  | { kind: "bot"; login: string; installationId?: number; scopes?: Readonly<Record<string, ScopeLevel>> }
  | { kind: "app"; appId: number; slug: string }
  | { kind: "anonymous" };

export interface UserRecord {
  id: number;
  login: string;
  type: "User" | "Bot";
}

export interface InstallationRecord {
  id: number;
  appId: number;
  appSlug: string;
  /** Login of the installation's bot, e.g. `bosun[bot]`. */
  botLogin: string;
  /** Repositories ("owner/name") the installation can reach. */
  repos: string[];
  permission: Permission;
  /** The installation's permissions by name (`checks: "write"`); default: derived from `permission` (to-json-app.ts). */
  permissions?: Record<string, string>;
  /** When it was installed: its `created_at` and `updated_at` (so its JSON, and ETag, stay the same while it does). */
  createdAt?: number;
}

export interface LabelRecord {
  id: number;
  name: string;
  color: string;
  description: string | null;
  default: boolean;
}

export interface IssueRecord {
  id: number;
  number: number;
  title: string;
  body: string | null;
  state: "open" | "closed";
  stateReason: "completed" | "not_planned" | "reopened" | null;
  user: string;
  labels: string[];
  assignees: string[];
  locked: boolean;
  createdAt: number;
  updatedAt: number;
  closedAt: number | null;
  /**
   * When its body was last edited, and by whom (GraphQL `lastEditedAt` and `editor` of the
   * `Comment` interface); null while the body is the one it was opened with. Unlike `updatedAt`,
   * labels, comments and state changes leave it alone.
   */
  lastEditedAt: number | null;
  editor: string | null;
  /** Set when the issue is the conversation of a pull request. */
  isPull: boolean;
  /** Label events, oldest first (`GET .../issues/{n}/events`): who added or removed which label, when. */
  events: IssueEventRecord[];
}

export interface IssueEventRecord {
  id: number;
  /** Label events; and, on a pull request, `closed`, `reopened` and `base_ref_changed` (its base was edited). */
  event: "labeled" | "unlabeled" | "closed" | "reopened" | "base_ref_changed";
  /** The label of a `labeled`/`unlabeled` event; "" for the others. */
  label: string;
  actor: string;
  createdAt: number;
}

export interface CommentRecord {
  id: number;
  issueNumber: number;
  body: string;
  user: string;
  createdAt: number;
  updatedAt: number;
}

export interface CommitRecord {
  sha: string;
  tree: string;
  parents: string[];
  message: string;
  author: { name: string; email: string; date: string };
  committer: { name: string; email: string; date: string };
  /**
   * Set when GitHub signed the commit: one a bot (an App) created through the API with no custom
   * author or committer. Its `verification` then answers verified; every other commit is unsigned.
   */
  signedFor?: string;
}

export interface PullFileRecord {
  filename: string;
  status: "added" | "removed" | "modified" | "renamed" | "copied" | "changed" | "unchanged";
  additions: number;
  deletions: number;
  /** Omitted means GitHub sent no patch (binary, or too large). */
  patch?: string;
  previousFilename?: string;
}

export interface PullRecord {
  number: number;
  id: number;
  headRef: string;
  headSha: string;
  baseRef: string;
  baseSha: string;
  draft: boolean;
  merged: boolean;
  mergedAt: number | null;
  /** After a merge, the commit the base branch got (merge, squash or rebased head); null before. */
  mergeCommitSha?: string;
  /** Who merged it (the merge route sets it). */
  mergedBy?: string;
  /**
   * Opened through the API: head, commits and files follow the branches (see `syncPull`), with
   * `refs/pull/<n>/head` and `/merge`. Seeded pulls (`addPull`) keep what the test gave them.
   */
  derived?: boolean;
  /** Paths the head and the base changed differently (a derived pull cannot be merged then). */
  conflicts?: string[];
  files: PullFileRecord[];
  /** Commit shas in order, oldest first. */
  commits: string[];
  /** Set for a pull request from a fork: the head repository's `owner/name`. */
  headRepo?: string;
  /** Totals as the pull request object reports them; default to the sum over files. */
  additions?: number;
  deletions?: number;
  changedFiles?: number;
}

export interface ReviewRecord {
  id: number;
  pullNumber: number;
  user: string;
  body: string;
  state: "APPROVED" | "CHANGES_REQUESTED" | "COMMENTED" | "PENDING" | "DISMISSED";
  commitId: string;
  submittedAt: number;
}

export interface CheckRunRecord {
  id: number;
  name: string;
  headSha: string;
  status: "queued" | "in_progress" | "completed" | "waiting" | "requested" | "pending";
  conclusion: string | null;
  startedAt: number;
  completedAt: number | null;
  externalId: string;
  detailsUrl: string | null;
  output: { title: string | null; summary: string | null; text: string | null; annotationsCount: number };
  annotations: unknown[];
  appId: number | null;
  appSlug: string | null;
}

export interface StatusRecord {
  id: number;
  sha: string;
  state: "error" | "failure" | "pending" | "success";
  context: string;
  description: string | null;
  targetUrl: string | null;
  creator: string;
  /** The GitHub App whose installation token posted it, null for a person's token. */
  appId?: number | null;
  createdAt: number;
  updatedAt: number;
}

export interface DeploymentRecord {
  id: number;
  sha: string;
  ref: string;
  task: string;
  environment: string;
  description: string | null;
  payload: unknown;
  creator: string;
  createdAt: number;
  updatedAt: number;
  statuses: DeploymentStatusRecord[];
}

export interface DeploymentStatusRecord {
  id: number;
  state: string;
  description: string;
  environment: string;
  environmentUrl: string;
  logUrl: string;
  creator: string;
  createdAt: number;
}

export interface WorkflowRecord {
  id: number;
  name: string;
  path: string;
  /** The workflow's `run-name:` template; `${{ inputs.x }}` is filled from a dispatch's inputs. */
  runName?: string;
  createdAt: number;
}

export interface WorkflowRunRecord {
  id: number;
  workflowId: number;
  event: string;
  headBranch: string;
  /** A fork's `owner/name` when the run's head is a fork's branch (a fork's pull request); else this repository. */
  headRepo?: string;
  headSha: string;
  status: "queued" | "in_progress" | "completed";
  conclusion: string | null;
  inputs: Record<string, unknown>;
  actor: string;
  runNumber: number;
  createdAt: number;
  updatedAt: number;
  /** The run's title as GitHub shows it (`run-name` evaluated); default: from the workflow's `runName`. */
  displayTitle?: string;
  /** Who caused this attempt, when not `actor` (a re-run). */
  triggeringActor?: string;
  /**
   * The attempts before this one, oldest first (absent: this is attempt 1). A re-run keeps the run's
   * id, `actor`, head and inputs; it adds an attempt, with its own `triggering_actor`, status and conclusion.
   */
  priorAttempts?: PriorAttempt[];
  /** When the latest attempt started (absent: at `createdAt`, attempt 1). */
  startedAt?: number;
  /** The workflow file the run was read from, when not the workflow's own path. */
  path?: string;
}

/** An earlier attempt of a workflow run, as `GET .../runs/{id}/attempts/{n}` still shows it. */
export interface PriorAttempt {
  triggeringActor: string;
  status: "completed";
  conclusion: string | null;
  startedAt: number;
  updatedAt: number;
}

export interface RepoState {
  id: number;
  owner: string;
  name: string;
  private: boolean;
  defaultBranch: string;
  createdAt: number;
  permissions: Map<string, Permission>;
  /** Issues and pull requests share one number sequence, as on GitHub. */
  nextNumber: number;
  issues: Map<number, IssueRecord>;
  labels: Map<string, LabelRecord>;
  comments: Map<number, CommentRecord>;
  /** Full ref name (`refs/heads/main`, `refs/bosun/claims/42`) → commit sha. */
  refs: Map<string, string>;
  commits: Map<string, CommitRecord>;
  /** Tree sha → path → file content. A simple flat file tree per commit. */
  trees: Map<string, Map<string, string>>;
  /** Tree sha → the paths in it whose mode is 100755 (absent: none). */
  executables: Map<string, ReadonlySet<string>>;
  pulls: Map<number, PullRecord>;
  reviews: Map<number, ReviewRecord>;
  checkRuns: Map<number, CheckRunRecord>;
  statuses: StatusRecord[];
  deployments: Map<number, DeploymentRecord>;
  workflows: Map<number, WorkflowRecord>;
  workflowRuns: Map<number, WorkflowRunRecord>;
  /** Numbers of the pinned issues (GraphQL `pinIssue`), in the order they were pinned; at most 3. */
  pinnedIssues: number[];
  /** Branch protection, rulesets and environments (setup-records.ts), created on first use. */
  setup?: RepoSetupRecords;
  /** What moved each branch, who moved it, oldest first (`GET /repos/{o}/{r}/activity`). */
  activities: ActivityRecord[];
}

/** One change to a branch as GitHub's repository activity list records it, with the account that made it. */
export interface ActivityRecord {
  id: number;
  /** Full ref name, `refs/heads/<branch>`. */
  ref: string;
  /** `0`×40 for a creation's before and a deletion's after. */
  before: string;
  after: string;
  activityType: "push" | "force_push" | "branch_creation" | "branch_deletion" | "pr_merge" | "merge_queue_merge";
  /** Null when GitHub no longer names the account (a deleted user). */
  actor: string | null;
  at: number;
}

export interface FakeState {
  clock: Clock;
  /** Set once the server listens; every `url` field in a response starts with it. */
  baseUrl: string;
  /** One sequence for every id, so ids are deterministic and never collide across kinds. */
  nextId: number;
  users: Map<string, UserRecord>;
  tokens: Map<string, Identity>;
  installations: Map<number, InstallationRecord>;
  repos: Map<string, RepoState>;
  /** Seeded required status checks, by `owner/name:branch` (lower-case); read through `requiredChecksFor`. */
  requiredChecks: Map<string, RequiredCheck[]>;
  /** Set by a GitHub Actions stand-in: checks a dispatch against the workflow file and names its run. */
  actions?: ActionsHooks;
}

/** What a GitHub Actions stand-in tells the fake about workflow files (the fake cannot read YAML workflows itself). */
export interface ActionsHooks {
  /**
   * Called when a dispatch is accepted, before the run is stored: throws an `HttpError` (422) when
   * the workflow file at `sha` refuses it (no `workflow_dispatch`, unknown or missing inputs), else
   * answers the run's `display_title` (its `run-name` evaluated).
   */
  dispatch(input: { repo: RepoState; workflow: WorkflowRecord; ref: string; sha: string; inputs: Record<string, unknown>; actor: string }): { displayTitle: string };
}

/** An empty world at the clock's time. */
export function createState(clock: Clock): FakeState {
  return {
    clock,
    baseUrl: "http://127.0.0.1",
    nextId: 1,
    users: new Map(),
    tokens: new Map(),
    installations: new Map(),
    repos: new Map(),
    requiredChecks: new Map(),
  };
}

/** Next id of the one shared sequence. */
export function nextId(state: FakeState): number {
  return state.nextId++;
}

/** The user record for a login, created on first sight (bots are logins ending in `[bot]`). */
export function ensureUser(state: FakeState, login: string): UserRecord {
  let user = state.users.get(login);
  if (user === undefined) {
    user = { id: nextId(state), login, type: login.endsWith("[bot]") ? "Bot" : "User" };
    state.users.set(login, user);
  }
  return user;
}

/** Key of a repository in `state.repos`. */
export function repoKey(owner: string, name: string): string {
  return `${owner}/${name}`.toLowerCase();
}
