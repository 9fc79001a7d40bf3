import type { Octokit } from "@octokit/rest";
import type { QueueIssue, SchedulerGitHub } from "./scheduler-github.js";
import { statusOf } from "../../adapters/github/status-of.js";
import { SnapshotCache } from "../snapshot-cache.js";
import { createConditionalGet } from "../../adapters/github/conditional-get.js";
import { octokitDispatch } from "./octokit-dispatch.js";
import { octokitEvidenceReads } from "./octokit-evidence-reads.js";
import { octokitRunReads } from "./octokit-run-reads.js";
import { octokitSnapshotReads } from "./octokit-snapshot-reads.js";
import { octokitWorkRecordReads } from "./octokit-work-record-reads.js";
import { queueIssueOf } from "./queue-issue-of.js";

// Still exported from here: the dashboard reads which issue a branch is for through this module.
export { issueOfBranch } from "./issue-of-branch.js";

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

/**
 * The scheduler's GitHub reads and writes over Octokit. List reads are conditional (ETag), so a
 * tick that finds nothing changed costs 304s, which do not count against the rate limit.
 */
export function octokitSchedulerGitHub(octokit: Octokit, options: OctokitSchedulerOptions): SchedulerGitHub {
  const { owner, repo } = options;
  const conditional = createConditionalGet();
  const snapshots = options.snapshots ?? new SnapshotCache();
  const repoName = `${owner}/${repo}`;
  /** `item:epoch` → the run its workflow_dispatch started (answered by `return_run_details`). */
  const runIds = new Map<string, number>();

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

    ...octokitSnapshotReads(octokit, { owner, repo, botLogin: options.botLogin, snapshots }),

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

    ...octokitRunReads(octokit, { owner, repo }, conditional, runIds),

    ...octokitWorkRecordReads(octokit, { owner, repo, botLogin: options.botLogin }),

    ...octokitEvidenceReads(octokit, { owner, repo, now: options.now ?? Date.now, maxAgeMs: options.evidenceMaxAgeMs ?? 300_000 }, conditional),

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

    dispatch: octokitDispatch(octokit, options, runIds),
  };
}
