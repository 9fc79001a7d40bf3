/** Seeding helpers: put the world in the state a test needs without going through HTTP. */
import { EMPTY_TREE, executablesOf, filesAt, isAncestor, putCommit, putTree, resolveCommitish } from "./git-objects.js";
import { recordRefActivity } from "./record-ref-activity.js";
import { ensureLabel, insertIssue } from "./issue-store.js";
import { setRequiredChecks } from "./required-checks.js";
import { nextId, repoKey, ensureUser, type CommitRecord, type FakeState, type Identity, type InstallationRecord, type IssueRecord, type Permission, type PullFileRecord, type PullRecord, type RepoState } from "./state.js";
import type { Webhooks } from "./create-webhooks.js";
import { issueJson } from "./to-json-issue.js";
import { pullJson } from "./to-json-pull.js";
import { workflowRunJson } from "./to-json-ci.js";

export interface AddRepoInput {
  /** `owner/name`. */
  fullName: string;
  private?: boolean;
  defaultBranch?: string;
  /** Files of the first commit on the default branch. */
  files?: Record<string, string>;
  /** Paths among `files` that are executable (mode 100755), such as a script a workflow runs. */
  executable?: string[];
}

export interface AddIssueInput {
  title?: string;
  body?: string | null;
  user?: string;
  labels?: string[];
  assignees?: string[];
  state?: "open" | "closed";
}

export interface AddPullInput extends AddIssueInput {
  head?: string;
  base?: string;
  files?: PullFileRecord[];
  /** How many commits the head has over the base (default 1). */
  commitCount?: number;
  draft?: boolean;
  /** A fork's `owner/name` as the head repository (the head branch still lives in the base's store). */
  headRepo?: string;
  /** Override the totals the pull request object reports (they default to the sum of `files`). */
  totals?: { additions?: number; deletions?: number; changedFiles?: number };
}

export interface Seed {
  addRepo(input: AddRepoInput): RepoState;
  /** Permission of a login on a repository (owner is admin; public repos are readable by anyone). */
  setPermission(fullName: string, login: string, permission: Permission): void;
  /** Makes `token` act as a user (default) or a bot login, e.g. `github-actions[bot]`. */
  addToken(token: string, login: string, options?: { permissions?: Record<string, Permission> }): Identity;
  /** A GitHub App installation on repositories; its bot gets `permission` on each. */
  addInstallation(input: { id: number; appId: number; appSlug: string; repos: string[]; permission?: Permission }): InstallationRecord;
  addIssue(fullName: string, input?: AddIssueInput): IssueRecord;
  addPull(fullName: string, input?: AddPullInput): PullRecord;
  addLabel(fullName: string, name: string, color?: string, description?: string): void;
  /** A file on a branch (a new commit on top, like a push by `pusher`, default the owner) or, given a sha, in that commit's tree. */
  setFile(fullName: string, branchOrSha: string, path: string, content: string, pusher?: string): string;
  /**
   * A commit on a branch with these file changes, pushed by `pusher` (default the owner), given as
   * the fifth argument or in options with `executable` (paths given mode 100755); returns it.
   */
  commit(fullName: string, branch: string, message: string, files?: Record<string, string>, options?: string | { readonly pusher?: string; readonly executable?: readonly string[] }): CommitRecord;
  /** Points a ref (`refs/...` or a branch name) at a sha; a branch's move is recorded as the owner's push. */
  setRef(fullName: string, ref: string, sha: string): void;
  addWorkflow(fullName: string, input: { id?: number; path: string; name?: string; runName?: string }): number;
  /** Completes a workflow run with a conclusion and emits `workflow_run.completed`. */
  completeWorkflowRun(fullName: string, runId: number, conclusion: "success" | "failure" | "cancelled" | "timed_out" | "neutral" | "skipped"): void;
  /** The repository state (throws when unknown). */
  repo(fullName: string): RepoState;
  /**
   * Status checks a branch requires before a merge (`appId`: only that app's check run or status
   * counts), read by the merge route through `requiredChecksFor`.
   */
  requireChecks(fullName: string, branch: string, checks: ReadonlyArray<{ context: string; appId: number | null }>): void;
}

export function createSeed(state: FakeState, webhooks: Webhooks): Seed {
  const repo = (fullName: string): RepoState => {
    const [owner = "", name = ""] = fullName.split("/");
    const found = state.repos.get(repoKey(owner, name));
    if (found === undefined) throw new Error(`fake-github: no repository ${fullName}; call addRepo first`);
    return found;
  };

  /** A ref moved as a push by `pusher`: GitHub's activity record gets it too. */
  const moveRef = (r: RepoState, ref: string, sha: string, pusher: string): void => {
    const before = r.refs.get(ref);
    r.refs.set(ref, sha);
    recordRefActivity(state, r, { ref, before, after: sha, forced: before !== undefined && !isAncestor(r, before, sha) }, pusher);
  };
  const commitOn = (r: RepoState, branch: string, message: string, files: Record<string, string>, pusher = r.owner, executable: readonly string[] = []): CommitRecord => {
    const ref = branch.startsWith("refs/") ? branch : `refs/heads/${branch}`;
    const parent = r.refs.get(ref);
    const tree = new Map(parent === undefined ? [] : (filesAt(r, parent) ?? []));
    const modes = new Set(parent === undefined ? [] : executablesOf(r, r.commits.get(parent)?.tree ?? ""));
    for (const [path, content] of Object.entries(files)) {
      tree.set(path, content);
      if (executable.includes(path)) modes.add(path);
    }
    const commit = putCommit(state, r, { tree: putTree(r, tree, modes), parents: parent === undefined ? [] : [parent], message });
    moveRef(r, ref, commit.sha, pusher);
    return commit;
  };

  const seed: Seed = {
    repo,
    requireChecks(fullName, branch, checks) {
      repo(fullName);
      setRequiredChecks(state, fullName, branch, checks);
    },
    addRepo(input) {
      const [owner = "", name = ""] = input.fullName.split("/");
      ensureUser(state, owner);
      const r: RepoState = {
        id: nextId(state),
        owner,
        name,
        private: input.private ?? false,
        defaultBranch: input.defaultBranch ?? "main",
        createdAt: state.clock.now(),
        permissions: new Map(),
        nextNumber: 1,
        issues: new Map(),
        labels: new Map(),
        comments: new Map(),
        refs: new Map(),
        commits: new Map(),
        trees: new Map([[EMPTY_TREE, new Map()]]),
        executables: new Map(),
        pulls: new Map(),
        reviews: new Map(),
        checkRuns: new Map(),
        statuses: [],
        deployments: new Map(),
        workflows: new Map(),
        workflowRuns: new Map(),
        pinnedIssues: [],
        activities: [],
      };
      state.repos.set(repoKey(owner, name), r);
      commitOn(r, r.defaultBranch, "Initial commit", input.files ?? { "README.md": `# ${name}\n` }, r.owner, input.executable);
      return r;
    },
    setPermission(fullName, login, permission) {
      ensureUser(state, login);
      repo(fullName).permissions.set(login, permission);
    },
    addToken(token, login, options = {}) {
      ensureUser(state, login);
      const identity: Identity = login.endsWith("[bot]") ? { kind: "bot", login } : { kind: "user", login };
      state.tokens.set(token, identity);
      for (const [fullName, permission] of Object.entries(options.permissions ?? {})) seed.setPermission(fullName, login, permission);
      return identity;
    },
    addInstallation(input) {
      const installation: InstallationRecord = { ...input, botLogin: `${input.appSlug}[bot]`, permission: input.permission ?? "write", createdAt: state.clock.now() };
      state.installations.set(input.id, installation);
      for (const fullName of input.repos) seed.setPermission(fullName, installation.botLogin, installation.permission);
      return installation;
    },
    addIssue(fullName, input = {}) {
      const r = repo(fullName);
      const issue = insertIssue(state, r, {
        title: input.title ?? "An issue",
        body: input.body ?? null,
        user: input.user ?? r.owner,
        labels: input.labels ?? [],
        assignees: input.assignees ?? [],
      });
      if (input.state === "closed") {
        issue.state = "closed";
        issue.closedAt = state.clock.now();
        issue.stateReason = "completed";
      }
      return issue;
    },
    addPull(fullName, input = {}) {
      const r = repo(fullName);
      const base = input.base ?? r.defaultBranch;
      const issue = seed.addIssue(fullName, { title: "A pull request", ...input, state: input.state ?? "open" });
      issue.isPull = true;
      const head = input.head ?? `feature-${issue.number}`;
      const baseSha = r.refs.get(`refs/heads/${base}`);
      if (baseSha === undefined) throw new Error(`fake-github: no branch ${base} in ${fullName}`);
      // The PR's author created and pushed its branch (a fork's branch: the fork's owner).
      const pusher = input.headRepo?.split("/")[0] ?? issue.user;
      if (!r.refs.has(`refs/heads/${head}`)) moveRef(r, `refs/heads/${head}`, baseSha, pusher);
      const commits: string[] = [];
      for (let i = 0; i < (input.commitCount ?? 1); i++) {
        commits.push(commitOn(r, head, `Commit ${i + 1} of #${issue.number}`, { [`.fake/pr-${issue.number}`]: String(i) }, pusher).sha);
      }
      const pull: PullRecord = {
        number: issue.number,
        id: nextId(state),
        headRef: head,
        headSha: r.refs.get(`refs/heads/${head}`) ?? baseSha,
        baseRef: base,
        baseSha,
        draft: input.draft ?? false,
        merged: false,
        mergedAt: null,
        files: input.files ?? [],
        commits,
        ...(input.headRepo === undefined ? {} : { headRepo: input.headRepo }),
        ...(input.totals?.additions === undefined ? {} : { additions: input.totals.additions }),
        ...(input.totals?.deletions === undefined ? {} : { deletions: input.totals.deletions }),
        ...(input.totals?.changedFiles === undefined ? {} : { changedFiles: input.totals.changedFiles }),
      };
      r.pulls.set(pull.number, pull);
      return pull;
    },
    addLabel(fullName, name, color, description) {
      ensureLabel(state, repo(fullName), name, color, description ?? null);
    },
    setFile(fullName, branchOrSha, path, content, pusher) {
      const r = repo(fullName);
      if (/^[0-9a-f]{40}$/.test(branchOrSha) && r.commits.has(branchOrSha)) {
        // Rewriting a commit's tree in place: a test convenience git itself would never allow.
        const commit = r.commits.get(branchOrSha) as CommitRecord;
        const files = new Map(r.trees.get(commit.tree) ?? []);
        files.set(path, content);
        commit.tree = putTree(r, files, executablesOf(r, commit.tree));
        return commit.sha;
      }
      return commitOn(r, branchOrSha, `Update ${path}`, { [path]: content }, pusher).sha;
    },
    commit(fullName, branch, message, files = {}, options) {
      const r = repo(fullName);
      const opts = typeof options === "string" ? { pusher: options } : (options ?? {});
      return commitOn(r, branch, message, files, opts.pusher ?? r.owner, opts.executable ?? []);
    },
    setRef(fullName, ref, sha) {
      const r = repo(fullName);
      const resolved = resolveCommitish(r, sha) ?? sha;
      moveRef(r, ref.startsWith("refs/") ? ref : `refs/heads/${ref}`, resolved, r.owner);
    },
    addWorkflow(fullName, input) {
      const r = repo(fullName);
      const id = input.id ?? nextId(state);
      r.workflows.set(id, { id, path: input.path, name: input.name ?? input.path.split("/").pop() ?? input.path, createdAt: state.clock.now(), ...(input.runName === undefined ? {} : { runName: input.runName }) });
      return id;
    },
    completeWorkflowRun(fullName, runId, conclusion) {
      const r = repo(fullName);
      const run = r.workflowRuns.get(runId);
      if (run === undefined) throw new Error(`fake-github: no workflow run ${runId} in ${fullName}`);
      run.status = "completed";
      run.conclusion = conclusion;
      run.updatedAt = state.clock.now();
      if (webhooks.wants("workflow_run")) {
        const workflow = r.workflows.get(run.workflowId);
        webhooks.send({ event: "workflow_run", action: "completed", repo: r, sender: run.actor, fields: { workflow_run: workflowRunJson(state, r, run), workflow: workflow === undefined ? null : { id: workflow.id, name: workflow.name, path: workflow.path } } });
      }
    },
  };
  return seed;
}

/** Seeded issues and pulls can also announce themselves (`issues.opened`, `pull_request.opened`). */
export function announce(state: FakeState, webhooks: Webhooks, repo: RepoState, issue: IssueRecord): void {
  const pull = repo.pulls.get(issue.number);
  if (pull !== undefined) webhooks.send({ event: "pull_request", action: "opened", repo, sender: issue.user, fields: { number: issue.number, pull_request: pullJson(state, repo, pull) } });
  else webhooks.send({ event: "issues", action: "opened", repo, sender: issue.user, fields: { issue: issueJson(state, repo, issue) } });
}
