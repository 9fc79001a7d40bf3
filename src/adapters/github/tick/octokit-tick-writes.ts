import type { Octokit } from "@octokit/rest";
import { isSnapshotComment, parseSnapshotComment } from "../../../core/brief/snapshot.js";
import { isStatusComment } from "../../../core/scheduler/status-comment.js";
import { normalizeLogin } from "../../../core/separation/identity.js";
import { statusOf } from "../status-of.js";
import { bosunsComments, COMMENTS_PER_QUERY, commentsQuery } from "./bosuns-comments.js";
import { octokitDispatch } from "./octokit-dispatch.js";
import { octokitDispatchBatch } from "./octokit-dispatch-batch.js";
import type { OctokitTickOptions } from "./octokit-tick-options.js";
import type { OctokitTickShared } from "./octokit-tick-shared.js";
import type { BotComments, TickGitHub } from "./tick-github.js";

/** The tick's writes, with its reads of Bosun's own comments, over Octokit (`octokit-tick-github.ts` composes them). */
export type OctokitTickWrites = Pick<TickGitHub, "botComments" | "readBotComments" | "setLabels" | "comment" | "updateComment" | "closeIssue" | "dispatch" | "dispatchBatch">;

/**
 * Labels, comments, closing and dispatches, and the reads of Bosun's comments: those reads sit
 * with the writes because a comment this process posts or edits is known without reading it back,
 * in the one cache both keep. The dispatches record their runs in `shared`.
 */
export function octokitTickWrites(octokit: Octokit, options: OctokitTickOptions, shared: OctokitTickShared): OctokitTickWrites {
  const { owner, repo } = options;
  const { bot, runIds } = shared;
  /** What this process knows of Bosun's comments per issue: read, or written by it since. */
  const comments = new Map<number, BotComments>();

  return {
    async botComments(n, fresh) {
      const cached = comments.get(n);
      if (cached !== undefined && !fresh) return cached;
      const all = await octokit.paginate(octokit.rest.issues.listComments, { owner, repo, issue_number: n, per_page: 100 });
      const found = bosunsComments(all.map((c) => ({ id: c.id, body: c.body ?? "", bot: normalizeLogin(c.user?.login ?? "") === bot && c.user?.type === "Bot" })));
      comments.set(n, found);
      return found;
    },

    async readBotComments(numbers) {
      const unknown = [...new Set(numbers)].filter((n) => Number.isSafeInteger(n) && n > 0 && !comments.has(n));
      for (let i = 0; i < unknown.length; i += COMMENTS_PER_QUERY) {
        const chunk = unknown.slice(i, i + COMMENTS_PER_QUERY);
        let data: { repository: Record<string, { comments: { totalCount: number; nodes: Array<{ databaseId: number; body: string; author: { __typename: string; login: string } | null } | null> } } | null> | null };
        try {
          data = await octokit.graphql(commentsQuery(chunk), { owner, name: repo });
        } catch {
          // Each issue is read on its own when its comments are needed.
          continue;
        }
        for (const n of chunk) {
          const connection = data.repository?.[`i${n}`]?.comments;
          const nodes = connection?.nodes.filter((c) => c !== null) ?? [];
          // Only a whole list says what is not there.
          if (connection === undefined || nodes.length < connection.totalCount) continue;
          // GraphQL names an App's bot by its slug, as a `Bot`: `bosun[bot]` is `{__typename: "Bot", login: "bosun"}`.
          comments.set(n, bosunsComments(nodes.map((c) => ({ id: c.databaseId, body: c.body, bot: c.author?.__typename === "Bot" && normalizeLogin(c.author.login) === bot }))));
        }
      }
    },

    async setLabels(n, labels) {
      await octokit.rest.issues.setLabels({ owner, repo, issue_number: n, labels: [...labels] });
    },

    async comment(n, body) {
      const id = (await octokit.rest.issues.createComment({ owner, repo, issue_number: n, body })).data.id;
      // Known without reading it back: the next status update edits it, the next snapshot check sees it.
      const known = comments.get(n) ?? {};
      if (isStatusComment(body) && known.status === undefined) comments.set(n, { ...known, status: { id, body } });
      else if (isSnapshotComment(body)) {
        const parsed = parseSnapshotComment(body, `comment ${id}`);
        comments.set(n, { ...known, snapshot: { id, hash: parsed.ok ? parsed.snapshot.hash : "" } });
      }
      return id;
    },

    async updateComment(id, body) {
      try {
        await octokit.rest.issues.updateComment({ owner, repo, comment_id: id, body });
      } catch (err) {
        // Someone deleted it: forget it, so the next read finds what is there.
        if (statusOf(err) === 404) for (const [n, known] of comments) if (known.status?.id === id) comments.delete(n);
        throw err;
      }
      for (const [n, known] of comments) if (known.status?.id === id) comments.set(n, { ...known, status: { id, body } });
    },

    async closeIssue(n) {
      await octokit.rest.issues.update({ owner, repo, issue_number: n, state: "closed", state_reason: "completed" });
    },

    dispatch: octokitDispatch(octokit, { owner, repo, defaultBranch: options.defaultBranch, copilot: options.copilot, botLogin: options.botLogin, now: options.now }, runIds),
    dispatchBatch: octokitDispatchBatch(octokit, { owner, repo, defaultBranch: options.defaultBranch, botLogin: options.botLogin, now: options.now }, runIds),
  };
}
