import type { Octokit } from "@octokit/rest";
import { isItemBranch } from "../../core/agents/item-branch.js";
import { isSnapshotComment, parseSnapshotComment } from "../../core/brief/snapshot.js";
import { runTitle } from "../../core/scheduler/stop-from-run.js";
import type { QueueIssue, SchedulerGitHub, WorkflowRunView, PullLink } from "./scheduler-github.js";
import { statusOf } from "../../adapters/github/status-of.js";
import { SnapshotCache, type SnapshotRead } from "../snapshot-cache.js";
import { dispatchFailure } from "./dispatch-outcome-unknown.js";


/** `Closes #12`, `fixes #3`, `Resolves #4`: GitHub's closing keywords. */
const CLOSING = /\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\s*:?\s+#(\d+)\b/gi;

export interface OctokitSchedulerOptions {
  readonly owner: string;
  readonly repo: string;
  /** The bot's login: only its snapshot comments are trusted. */
  readonly botLogin: string;
  /** The default branch, where workflow dispatches run unless a pool names a ref. */
  readonly defaultBranch: string;
  /** Snapshots this process already knows (shared with the intake); default: the scheduler's own. */
  readonly snapshots?: SnapshotCache;
  /** The scheduler's clock (ms), for how old a cached listing is. */
  readonly now?: () => number;
  /**
   * How long the pull request and branch listings are reused (default 5 minutes): they serve the
   * evidence probe and landing by pull request, a webhook about either invalidates them at once,
   * and a stale one only delays a landing or lets the claim's compare-and-swap decide.
   */
  readonly evidenceMaxAgeMs?: number;
  /** A user-to-server client (a PAT or an App user token) for `assign` to Copilot, which refuses installation tokens. */
  readonly copilot?: Octokit;
}

/** Copilot's coding agent as an assignee: `Copilot` (as the web shows it) or its login `copilot-swe-agent`. */
const COPILOT = /^(copilot|copilot-swe-agent)(\[bot\])?$/i;
const COPILOT_LOGIN = "copilot-swe-agent";

/** The one error for an `assign` to Copilot that cannot happen, naming the token it needs. */
function copilotTokenNeeded(issue: number, why: string): string {
  return `assigning #${issue} to Copilot needs a user-to-server token (a personal access token, or a GitHub App user token, of a user with a Copilot seat and write access): an installation token is refused. ${why}: set BOSUN_COPILOT_TOKEN for the app, or the copilot-token input for the Action (docs/dispatch.md)`;
}

/** A branch named for an issue: `bosun/12`, `bosun/12-x`, GitHub's "Create a branch" `12-title`, `copilot/fix-12`. */
const ISSUE_BRANCH = /^(?:bosun\/(\d+)(?:\b|$)|(\d+)-|copilot\/fix-(\d+)$)/;

/** The queue's view of an issue from a REST issue object. */
function queueIssueOf(i: { number: number; title: string; labels: Array<string | { name?: string }>; created_at: string; updated_at: string; comments: number }): QueueIssue {
  return {
    number: i.number,
    title: i.title,
    labels: i.labels.map((l) => (typeof l === "string" ? l : (l.name ?? ""))).filter((l) => l !== ""),
    createdAt: Date.parse(i.created_at),
    updatedAt: Date.parse(i.updated_at),
    comments: i.comments,
  };
}

/** Snapshots read ahead in one query only when more than this many are missing. */
const PREFETCH_FROM = 2;

const QUEUED_WITH_COMMENTS = `query ($owner: String!, $name: String!, $labels: [String!], $after: String) {
  repository(owner: $owner, name: $name) {
    issues(labels: $labels, states: [OPEN], first: 50, after: $after, orderBy: {field: CREATED_AT, direction: ASC}) {
      pageInfo { hasNextPage endCursor }
      nodes { number comments(last: 30) { totalCount nodes { databaseId body author { __typename login } } } }
    }
  }
}`;

interface IssuesPage {
  repository: {
    issues: {
      pageInfo: { hasNextPage: boolean; endCursor: string | null };
      nodes: Array<{ number: number; comments: { totalCount: number; nodes: Array<{ databaseId: number; body: string; author: { __typename: string; login: string } | null } | null> | null } } | null>;
    } | null;
  } | null;
}

/**
 * The newest snapshot comment by the bot among `comments` (oldest first): the approved one; anyone
 * else's marker proves nothing. Replicas that took in one approval at once each post the same
 * snapshot: of a run of identical latest snapshots the oldest wins (every replica picks the same
 * one) and the others are `extras`, to delete — one snapshot per approval.
 */
function snapshotOf(issue: number, comments: ReadonlyArray<{ id: number; login: string; body: string }>, botLogin: string): SnapshotRead & { extras: number[] } {
  const all = comments.filter((c) => c.login === botLogin && isSnapshotComment(c.body));
  let first = all.length - 1;
  while (first > 0 && all[first - 1]?.body === all[first]?.body) first--;
  const mine = all[first];
  if (mine === undefined) return { ok: false, reason: `issue #${issue} has no snapshot comment by ${botLogin}`, extras: [] };
  const extras = all.slice(first + 1).map((c) => c.id);
  const parsed = parseSnapshotComment(mine.body, `issue #${issue}`);
  return parsed.ok ? { ok: true, snapshot: parsed.snapshot, commentId: mine.id, body: mine.body, extras } : { ok: false, reason: parsed.reason, extras };
}

/** The issue a branch name is for, if any. */
export function issueOfBranch(name: string): number | undefined {
  const m = ISSUE_BRANCH.exec(name);
  const n = Number(m?.[1] ?? m?.[2] ?? m?.[3]);
  return Number.isInteger(n) && n > 0 ? n : undefined;
}

/**
 * The scheduler's GitHub reads and writes over Octokit. List reads are conditional (ETag), so a
 * tick that finds nothing changed costs 304s, which do not count against the rate limit.
 */
export function octokitSchedulerGitHub(octokit: Octokit, options: OctokitSchedulerOptions): SchedulerGitHub {
  const { owner, repo } = options;
  const etags = new Map<string, { etag: string; data: unknown }>();
  const now = options.now ?? Date.now;
  const maxAge = options.evidenceMaxAgeMs ?? 300_000;
  /** When each evidence listing was last read; deleted when a webhook says it changed. */
  const listedAt = new Map<"pulls" | "branches", number>();
  let pullLinks: ReadonlyMap<number, readonly PullLink[]> = new Map();
  let branchLinks: ReadonlyMap<number, string> = new Map();
  const fresh = (what: "pulls" | "branches"): boolean => {
    const at = listedAt.get(what);
    return at !== undefined && now() - at < maxAge;
  };
  const snapshots = options.snapshots ?? new SnapshotCache();
  const repoName = `${owner}/${repo}`;
  /** `item:epoch` → the run its workflow_dispatch started (answered by `return_run_details`). */
  const runIds = new Map<string, number>();

  /** GET with If-None-Match; on 304 answers the data of the last 200. */
  async function conditional<T>(key: string, fetchPage: (headers: Record<string, string>) => Promise<{ data: T; headers: { etag?: string } }>): Promise<T> {
    const cached = etags.get(key);
    try {
      const response = await fetchPage(cached === undefined ? {} : { "if-none-match": cached.etag });
      if (response.headers.etag !== undefined) etags.set(key, { etag: response.headers.etag, data: response.data });
      return response.data;
    } catch (err) {
      if (statusOf(err) === 304 && cached !== undefined) return cached.data as T;
      throw err;
    }
  }

  /** The run a dispatch of this item and epoch started, by its run name (newest runs, read fresh, three tries). */
  async function findDispatchedRun(workflow: string, item: string, epoch: number): Promise<{ id: number; url: string } | undefined> {
    const title = runTitle(item, epoch);
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        const { data } = await octokit.rest.actions.listWorkflowRuns({ owner, repo, workflow_id: workflow, event: "workflow_dispatch", per_page: 30, headers: { "cache-control": "no-cache" } });
        const run = data.workflow_runs.find((r) => r.display_title === title);
        if (run !== undefined) return { id: run.id, url: run.html_url };
      } catch {
        // A failed read is one more reason to look again, not an answer.
      }
    }
    return undefined;
  }

  /** Deletes duplicate snapshots (best effort: one left behind is deleted by the next read); answers how many are left. */
  async function deleteExtras(ids: readonly number[]): Promise<number> {
    let left = 0;
    for (const id of ids) {
      try {
        await octokit.rest.issues.deleteComment({ owner, repo, comment_id: id });
      } catch (err) {
        // Gone already: another replica deleted it first.
        if (statusOf(err) !== 404) left++;
      }
    }
    return left;
  }

  return {
    async listQueued(label) {
      const byNumber = new Map<number, QueueIssue>();
      const pass = async (direction: "asc" | "desc"): Promise<number> => {
        let pages = 0;
        for (let page = 1; page < 100; page++) {
          pages++;
          const data = await conditional(`issues:${label}:${direction}:${page}`, (headers) => octokit.rest.issues.listForRepo({ owner, repo, labels: label, state: "open", per_page: 100, page, sort: "created", direction, headers }));
          for (const i of data) if (i.pull_request === undefined && !byNumber.has(i.number)) byNumber.set(i.number, queueIssueOf(i));
          if (data.length < 100) break;
        }
        return pages;
      };
      // Pages are offsets: an issue leaving the queue while they are read shifts the next page, and
      // an issue at its edge is never seen. Over several pages, a second pass the other way round
      // sees what the first one skipped.
      if ((await pass("asc")) > 1) await pass("desc");
      return [...byNumber.values()].sort((a, b) => a.createdAt - b.createdAt || a.number - b.number);
    },

    async snapshot(issue, inFlight = false, uncached = false) {
      const last = snapshots.last(repoName, issue.number);
      const cached = uncached ? undefined : inFlight && last?.ok === true ? last : snapshots.get(repoName, issue.number, issue.comments);
      if (cached !== undefined) return cached;
      const comments = await octokit.paginate(octokit.rest.issues.listComments, { owner, repo, issue_number: issue.number, per_page: 100 });
      const { extras, ...result } = snapshotOf(issue.number, comments.map((c) => ({ id: c.id, login: c.user?.login ?? "", body: c.body ?? "" })), options.botLogin);
      const left = await deleteExtras(extras);
      // Only a snapshot found is kept: "none" may be a lagging read of a comment just posted, and
      // kept against this comment count it would hide the approval until someone comments again.
      if (result.ok) snapshots.set(repoName, issue.number, issue.comments - (extras.length - left), result);
      return result;
    },

    async prefetchSnapshots(issues, label) {
      // Many issues whose snapshot this process has not read (a new process, an Action run): one
      // GraphQL query per 50 issues reads their latest comments instead of one request each.
      const missing = new Set(issues.filter((i) => snapshots.get(repoName, i.number, i.comments) === undefined).map((i) => i.number));
      if (missing.size <= PREFETCH_FROM) return;
      let after: string | null = null;
      for (let page = 0; page < 100 && missing.size > 0; page++) {
        const data: IssuesPage = await octokit.graphql(QUEUED_WITH_COMMENTS, { owner, name: repo, labels: [label], after });
        const found = data.repository?.issues;
        for (const node of found?.nodes ?? []) {
          if (node === null || !missing.has(node.number)) continue;
          const comments = (node.comments.nodes ?? []).flatMap((c) => (c === null ? [] : [{ id: c.databaseId, login: c.author === null ? "" : c.author.__typename === "Bot" ? `${c.author.login}[bot]` : c.author.login, body: c.body }]));
          const { extras, ...result } = snapshotOf(node.number, comments, options.botLogin);
          // Older comments were not fetched: without a snapshot among the newest, the full read decides.
          if (!result.ok && node.comments.totalCount > comments.length) continue;
          // "None" (or a broken one) is not kept: the full read decides, each tick, until one is found.
          if (!result.ok) continue;
          const left = await deleteExtras(extras);
          snapshots.set(repoName, node.number, node.comments.totalCount - (extras.length - left), result);
          missing.delete(node.number);
        }
        if (found?.pageInfo.hasNextPage !== true) break;
        after = found.pageInfo.endCursor;
      }
    },

    async issueNow(issue) {
      // A 404 can be a replica that has not caught up: asked again before the issue counts as gone
      // (410, deleted, is final).
      for (let attempt = 1; ; attempt++) {
        try {
          const { data } = await octokit.rest.issues.get({ owner, repo, issue_number: issue, headers: { "cache-control": "no-cache" } });
          return { ...queueIssueOf(data), open: data.state === "open", completed: data.state === "closed" && data.state_reason === "completed" };
        } catch (err) {
          if (statusOf(err) === 410 || (statusOf(err) === 404 && attempt >= 3)) return undefined;
          if (statusOf(err) !== 404) throw err;
        }
      }
    },

    async isOpen(issue) {
      try {
        const data = await conditional(`issue:${issue}`, (headers) => octokit.rest.issues.get({ owner, repo, issue_number: issue, headers }));
        return data.state === "open";
      } catch (err) {
        // A blocker that does not exist (or is not visible) cannot hold anything up.
        if (statusOf(err) === 404 || statusOf(err) === 410) return false;
        throw err;
      }
    },

    async listRuns(enough) {
      // A long run can be pushed off the first page by the short ones after it: read on while a
      // run in flight is still missing (each page a conditional request).
      const out: WorkflowRunView[] = [];
      for (let page = 1; page <= 10; page++) {
        const data = await conditional(`runs:${page}`, (headers) => octokit.rest.actions.listWorkflowRunsForRepo({ owner, repo, event: "workflow_dispatch", per_page: 100, page, headers }));
        for (const r of data.workflow_runs) out.push({ id: r.id, status: r.status ?? "", conclusion: r.conclusion ?? null, displayTitle: r.display_title, url: r.html_url, createdAt: Date.parse(r.created_at) });
        if (data.workflow_runs.length < 100 || enough === undefined || enough(out)) break;
      }
      return out;
    },

    knownRunId(issue, epoch) {
      return runIds.get(`${issue}:${epoch}`);
    },

    async linkedPulls() {
      if (fresh("pulls")) return pullLinks;
      const data = await conditional("pulls", (headers) => octokit.rest.pulls.list({ owner, repo, state: "all", sort: "updated", direction: "desc", per_page: 100, headers }));
      const links = new Map<number, PullLink[]>();
      for (const pr of data) {
        const state: PullLink["state"] = pr.state === "open" ? "open" : pr.merged_at !== null ? "merged" : "closed";
        const issues = new Set<number>();
        for (const m of (pr.body ?? "").matchAll(CLOSING)) issues.add(Number(m[1]));
        const branch = issueOfBranch(pr.head.ref);
        if (branch !== undefined) issues.add(branch);
        const sameRepo = pr.head.repo?.full_name === `${owner}/${repo}`;
        for (const n of issues) links.set(n, [...(links.get(n) ?? []), { number: pr.number, state, ...(sameRepo && isItemBranch(pr.head.ref, n) ? { bosunBranch: true as const } : {}) }]);
      }
      pullLinks = links;
      listedAt.set("pulls", now());
      return links;
    },

    async evidenceOf(issue, neverClaimed) {
      // Bosun's own pull request from an earlier epoch is where a retry continues, not someone else's work.
      const open = ((await this.linkedPulls()).get(issue) ?? []).find((p) => p.state === "open" && (neverClaimed || p.bosunBranch !== true));
      if (open !== undefined) return `pull request #${open.number} is open for it`;
      // Branches left by Bosun's own earlier attempts are not someone else's work.
      if (!neverClaimed) return undefined;
      if (!fresh("branches")) {
        const refs = await conditional("branches", (headers) => octokit.rest.git.listMatchingRefs({ owner, repo, ref: "heads/", headers }));
        const links = new Map<number, string>();
        for (const r of refs) {
          const name = r.ref.replace(/^refs\/heads\//, "");
          const n = issueOfBranch(name);
          if (n !== undefined && !links.has(n)) links.set(n, name);
        }
        branchLinks = links;
        listedAt.set("branches", now());
      }
      const branch = branchLinks.get(issue);
      return branch === undefined ? undefined : `branch ${branch} exists for it`;
    },

    invalidate(what) {
      listedAt.delete(what);
    },

    async addLabels(issue, labels) {
      await octokit.rest.issues.addLabels({ owner, repo, issue_number: issue, labels: [...labels] });
    },

    async setLabels(issue, labels) {
      await octokit.rest.issues.setLabels({ owner, repo, issue_number: issue, labels: [...labels] });
    },

    async removeLabel(issue, label) {
      try {
        await octokit.rest.issues.removeLabel({ owner, repo, issue_number: issue, name: label });
      } catch (err) {
        // Already gone is the state we wanted.
        if (statusOf(err) !== 404) throw err;
      }
    },

    async updateComment(commentId, body) {
      await octokit.rest.issues.updateComment({ owner, repo, comment_id: commentId, body });
      snapshots.updateBody(repoName, commentId, body);
    },

    async dispatch(issue, dispatch, inputs) {
      switch (dispatch.kind) {
        case "workflow": {
          let answer;
          try {
            answer = await octokit.request("POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches", {
              owner,
              repo,
              workflow_id: dispatch.workflow,
              ref: dispatch.ref ?? options.defaultBranch,
              inputs: { item: inputs.item, epoch: String(inputs.epoch), brief_hash: inputs.briefHash },
              return_run_details: true,
            });
          } catch (err) {
            // A 5xx (or a dropped connection) may come after GitHub started the run: dispatching
            // again would put a second worker on the item. Its run name names this item and
            // epoch exactly, so look for it before calling the dispatch failed.
            // Not found yet is no answer either (runs reach listings seconds later): the claim is
            // then kept, and the tick matches the run by its name when it shows.
            const code = statusOf(err);
            if (code !== undefined && code < 500) throw err;
            const started = await findDispatchedRun(dispatch.workflow, inputs.item, inputs.epoch);
            if (started === undefined) dispatchFailure(issue, err);
            runIds.set(`${inputs.item}:${inputs.epoch}`, started.id);
            return { runId: started.id, url: started.url };
          }
          const { data, status: code } = answer;
          const details = code === 200 ? (data as unknown as { workflow_run_id?: number; html_url?: string }) : {};
          // Kept so this process lands the run by its id; other replicas match it by its run name.
          if (details.workflow_run_id !== undefined) runIds.set(`${inputs.item}:${inputs.epoch}`, details.workflow_run_id);
          return { ...(details.workflow_run_id === undefined ? {} : { runId: details.workflow_run_id }), ...(details.html_url === undefined ? {} : { url: details.html_url }) };
        }
        case "assign": {
          if (!COPILOT.test(dispatch.assignee)) {
            await octokit.rest.issues.addAssignees({ owner, repo, issue_number: issue, assignees: [dispatch.assignee] }).catch((err: unknown) => dispatchFailure(issue, err));
            return {};
          }
          // Copilot takes an issue only from a user-to-server token; an installation token's
          // assignment is dropped without an error. So: the configured user token, and the answer
          // checked, or a failure that names the token — never a dispatch nobody received.
          if (options.copilot === undefined) throw new Error(copilotTokenNeeded(issue, "no user token is configured"));
          const { data } = await options.copilot.rest.issues.addAssignees({ owner, repo, issue_number: issue, assignees: [COPILOT_LOGIN] }).catch((err: unknown) => dispatchFailure(issue, err));
          if (!(data.assignees ?? []).some((a) => COPILOT.test(a?.login ?? ""))) throw new Error(copilotTokenNeeded(issue, "GitHub did not assign Copilot with the configured token"));
          return {};
        }
        case "label":
          await octokit.rest.issues.addLabels({ owner, repo, issue_number: issue, labels: [dispatch.label] }).catch((err: unknown) => dispatchFailure(issue, err));
          return {};
        case "comment": {
          const { data } = await octokit.rest.issues.createComment({ owner, repo, issue_number: issue, body: inputs.instruction }).catch((err: unknown) => dispatchFailure(issue, err));
          return { url: data.html_url };
        }
      }
    },
  };
}
