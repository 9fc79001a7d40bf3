import type { IntakeComment } from "../../core/intake/intake-types.js";
import type { AppOctokit, RepoRef } from "../app-octokit.js";
import { statusOf } from "../../adapters/github/status-of.js";
import { hasWriteAccess } from "../../adapters/github/has-write-access.js";

/** The issue as read, before its comments: `commentCount` says whether listing them is needed. */
export interface IssueRead {
  readonly number: number;
  readonly title: string;
  readonly state: "open" | "closed";
  readonly body: string;
  readonly labels: readonly string[];
  readonly commentCount: number;
}

/** What the intake reads from GitHub. */
export interface IntakeReader {
  /** Write, maintain or admin (GitHub's legacy `permission` folds maintain into write). */
  canWrite(login: string): Promise<boolean>;
  issue(number: number): Promise<IssueRead>;
  comments(number: number): Promise<readonly IntakeComment[]>;
  /** The latest `labeled`/`unlabeled` event for this label on the issue (GitHub's issue events), if any. */
  lastLabelEvent(number: number, label: string): Promise<{ event: "labeled" | "unlabeled"; actor: string | undefined } | undefined>;
}

/** What the intake writes to GitHub. */
export interface IntakeWriter {
  /** Posts a comment; answers its id. */
  comment(number: number, body: string): Promise<number>;
  updateComment(commentId: number, body: string): Promise<void>;
  addLabels(number: number, labels: readonly string[]): Promise<void>;
  removeLabel(number: number, label: string): Promise<void>;
}

/** Both intake ports over the event's installation client. */
export function octokitIntakeGitHub(octokit: AppOctokit, repo: RepoRef): IntakeReader & IntakeWriter {
  return {
    canWrite: (login) => hasWriteAccess(octokit as unknown as Parameters<typeof hasWriteAccess>[0], repo.owner, repo.repo, login),
    async issue(number) {
      const { data } = await octokit.rest.issues.get({ ...repo, issue_number: number });
      return {
        number,
        title: data.title,
        state: data.state === "closed" ? "closed" : "open",
        body: data.body ?? "",
        labels: data.labels.map((l) => (typeof l === "string" ? l : (l.name ?? ""))).filter((l) => l !== ""),
        commentCount: data.comments,
      };
    },
    async comments(number) {
      const all = await octokit.paginate(octokit.rest.issues.listComments, { ...repo, issue_number: number, per_page: 100 });
      return all.map((c) => ({ id: c.id, author: c.user?.login ?? "ghost", authorIsBot: c.user?.type === "Bot", body: c.body ?? "" }));
    },
    async lastLabelEvent(number, label) {
      const events = await octokit.paginate(octokit.rest.issues.listEvents, { ...repo, issue_number: number, per_page: 100 });
      const want = label.toLowerCase();
      const last = events.filter((e) => (e.event === "labeled" || e.event === "unlabeled") && "label" in e && e.label?.name?.toLowerCase() === want).at(-1);
      return last === undefined ? undefined : { event: last.event as "labeled" | "unlabeled", actor: last.actor?.login ?? undefined };
    },
    async comment(number, body) {
      return (await octokit.rest.issues.createComment({ ...repo, issue_number: number, body })).data.id;
    },
    async updateComment(commentId, body) {
      await octokit.rest.issues.updateComment({ ...repo, comment_id: commentId, body });
    },
    async addLabels(number, labels) {
      await octokit.rest.issues.addLabels({ ...repo, issue_number: number, labels: [...labels] });
    },
    async removeLabel(number, label) {
      try {
        await octokit.rest.issues.removeLabel({ ...repo, issue_number: number, name: label });
      } catch (error) {
        // Already gone (someone else removed it meanwhile): the goal state holds.
        if (statusOf(error) !== 404) throw error;
      }
    },
  };
}
