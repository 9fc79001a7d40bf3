import type { Octokit } from "@octokit/rest";
import type { ApprovalFacts } from "../../../core/scheduler/tick-facts.js";
import { statusOf } from "../status-of.js";
import { approvalOf } from "./approval-of.js";
import { BODY_EDIT_QUERY, BODY_EDITS_PER_QUERY, bodyEditOf, bodyEditsQuery } from "./body-edit-of.js";
import type { EditedIssue } from "./body-edit-of.js";
import { listedOf } from "./listed-of.js";
import type { RestIssue } from "./listed-of.js";
import type { OctokitTickOptions } from "./octokit-tick-options.js";
import type { OctokitTickShared } from "./octokit-tick-shared.js";
import type { BodyEdit, ListedIssue, TickReads } from "./tick-github.js";

/** Pages of the repository's newest issue events read for several approvals before each issue is read on its own. */
const REPO_EVENT_PAGES = 2;

/** How long a collaborator's role is trusted before it is asked again. */
const ROLE_MAX_AGE_MS = 5 * 60_000;

/** The tick's reads of issues and of who approved them, over Octokit (`octokit-tick-github.ts` composes them). */
export type OctokitIssueReads = Pick<TickReads, "listApproved" | "listClosedApproved" | "issue" | "approval" | "approvals" | "bodyEdits" | "role">;

/** Issues, approvals, bodies' edit times and roles; the roles are cached here, the ETags in `shared`. */
export function octokitIssueReads(octokit: Octokit, options: OctokitTickOptions, shared: OctokitTickShared): OctokitIssueReads {
  const { owner, repo, now } = options;
  const { conditional } = shared;
  const roles = new Map<string, { role: string; at: number }>();

  return {
    async listApproved(label) {
      const byNumber = new Map<number, ListedIssue>();
      const pass = async (direction: "asc" | "desc"): Promise<number> => {
        let pages = 0;
        for (let page = 1; page < 100; page++) {
          pages++;
          const data = await conditional(`issues:${label}:${direction}:${page}`, (headers) => octokit.rest.issues.listForRepo({ owner, repo, labels: label, state: "open", per_page: 100, page, sort: "created", direction, headers }));
          for (const i of data) if (i.pull_request === undefined && !byNumber.has(i.number)) byNumber.set(i.number, listedOf(i as RestIssue));
          if (data.length < 100) break;
        }
        return pages;
      };
      // Pages are offsets: an issue leaving while they are read shifts the next page. Over several
      // pages, a second pass the other way round sees what the first one skipped.
      if ((await pass("asc")) > 1) await pass("desc");
      return [...byNumber.values()].sort((a, b) => a.createdAt - b.createdAt || a.number - b.number);
    },

    async listClosedApproved(label) {
      const data = await conditional(`closed:${label}`, (headers) => octokit.rest.issues.listForRepo({ owner, repo, labels: label, state: "closed", per_page: 100, sort: "updated", direction: "desc", headers }));
      return data.filter((i) => i.pull_request === undefined).map((i) => listedOf(i as RestIssue));
    },

    async issue(n) {
      // A 404 can be a replica that has not caught up: asked again before the issue counts as gone (410, deleted, is final).
      for (let attempt = 1; ; attempt++) {
        try {
          // Conditional: the server answers 304 only when the issue is unchanged (free against the limit).
          const data = await conditional(`issue:${n}`, (headers) => octokit.rest.issues.get({ owner, repo, issue_number: n, headers }));
          return data.pull_request === undefined ? listedOf(data as RestIssue) : undefined;
        } catch (err) {
          if (statusOf(err) === 410 || (statusOf(err) === 404 && attempt >= 3)) return undefined;
          if (statusOf(err) !== 404) throw err;
        }
      }
    },

    async approval(n, label, mayApprove) {
      // GitHub's issue events, oldest first: the newest labeled/unlabeled event of the label decides.
      const want = label.toLowerCase();
      let latest: { id: number; event: string; actor: string; at: number } | undefined;
      for (let page = 1; page <= 30; page++) {
        const data = await conditional(`events:${n}:${page}`, (headers) => octokit.rest.issues.listEvents({ owner, repo, issue_number: n, per_page: 100, page, headers }));
        for (const e of data) {
          if ((e.event !== "labeled" && e.event !== "unlabeled") || !("label" in e) || e.label?.name?.toLowerCase() !== want) continue;
          latest = { id: e.id, event: e.event, actor: e.actor?.login ?? "ghost", at: Date.parse(e.created_at) };
        }
        if (data.length < 100) break;
      }
      return latest === undefined ? { kind: "none" } : approvalOf(latest, mayApprove);
    },

    async approvals(wanted, label) {
      const out = new Map<number, ApprovalFacts>();
      const want = label.toLowerCase();
      const open = new Map(wanted.map((w) => [w.n, w]));
      // One issue: its own events are one read as well.
      if (open.size > 1) {
        // The repository's issue events, newest first: the first event of the label an issue shows
        // is its latest. GitHub does not document that order, so a page that is not newest first
        // settles nothing. An issue not settled within these pages is read on its own.
        let before = Number.POSITIVE_INFINITY;
        for (let page = 1; page <= REPO_EVENT_PAGES && open.size > 0; page++) {
          const data = await conditional(`repo-events:${page}`, (headers) => octokit.rest.issues.listEventsForRepo({ owner, repo, per_page: 100, page, headers }));
          const newestFirst = data.every((e, i) => e.id < (i === 0 ? before : (data[i - 1]?.id ?? 0)));
          if (!newestFirst) break;
          before = data.at(-1)?.id ?? before;
          for (const e of data) {
            const n = e.issue?.number;
            const w = n === undefined ? undefined : open.get(n);
            if (w === undefined || (e.event !== "labeled" && e.event !== "unlabeled") || e.label?.name?.toLowerCase() !== want) continue;
            open.delete(w.n);
            out.set(w.n, await approvalOf({ id: e.id, event: e.event, actor: e.actor?.login ?? "ghost", at: Date.parse(e.created_at) }, w.mayApprove));
          }
          if (data.length < 100) break;
        }
      }
      for (const w of open.values()) out.set(w.n, await this.approval(w.n, label, w.mayApprove));
      return out;
    },

    async bodyEdits(numbers) {
      // REST's issue has no edit time (its `updated_at` moves on labels and comments too); GraphQL's
      // `lastEditedAt` of the `Comment` interface is the body's last edit
      // (docs.github.com/en/graphql/reference/interfaces#comment). The body comes in the same read,
      // and every new approval of a tick in one query: one alias per issue.
      const out = new Map<number, BodyEdit>();
      const one = async (n: number): Promise<void> => {
        try {
          const data = await octokit.graphql<{ repository: { issue: EditedIssue } | null }>(BODY_EDIT_QUERY, { owner, name: repo, number: n });
          const read = bodyEditOf(data.repository?.issue);
          if (read !== undefined) out.set(n, read);
        } catch {
          // Not known (not found yet, an error): the approval waits for a read that answers.
        }
      };
      const unique = [...new Set(numbers)].filter((n) => Number.isSafeInteger(n) && n > 0);
      for (let i = 0; i < unique.length; i += BODY_EDITS_PER_QUERY) {
        const chunk = unique.slice(i, i + BODY_EDITS_PER_QUERY);
        if (chunk.length === 1) {
          await one(chunk[0] as number);
          continue;
        }
        try {
          const data = await octokit.graphql<{ repository: Record<string, EditedIssue> | null }>(bodyEditsQuery(chunk), { owner, name: repo });
          for (const n of chunk) {
            const read = bodyEditOf(data.repository?.[`i${n}`]);
            if (read !== undefined) out.set(n, read);
          }
        } catch {
          // One issue the query cannot resolve (gone, not found yet) fails the whole answer: each is asked on its own.
          for (const n of chunk) await one(n);
        }
      }
      return out;
    },

    async role(login) {
      const key = login.toLowerCase();
      const known = roles.get(key);
      if (known !== undefined && now() - known.at < ROLE_MAX_AGE_MS) return known.role;
      let role = "none";
      try {
        const { data } = await octokit.rest.repos.getCollaboratorPermissionLevel({ owner, repo, username: login });
        role = (data as { role_name?: string }).role_name ?? data.permission;
      } catch (err) {
        if (statusOf(err) !== 404) throw err;
      }
      roles.set(key, { role, at: now() });
      return role;
    },
  };
}
