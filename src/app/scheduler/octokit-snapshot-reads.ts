import type { Octokit } from "@octokit/rest";
import { statusOf } from "../../adapters/github/status-of.js";
import type { SnapshotCache } from "../snapshot-cache.js";
import type { SchedulerReads } from "./scheduler-github.js";
import { snapshotOf } from "./snapshot-of.js";

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

/** The snapshot reads of the Octokit scheduler adapter: one issue's comments, or many issues' at once. */
export function octokitSnapshotReads(octokit: Octokit, options: { readonly owner: string; readonly repo: string; readonly botLogin: string; readonly snapshots: SnapshotCache }): Pick<SchedulerReads, "snapshot" | "prefetchSnapshots"> {
  const { owner, repo, snapshots } = options;
  const repoName = `${owner}/${repo}`;

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
  };
}
