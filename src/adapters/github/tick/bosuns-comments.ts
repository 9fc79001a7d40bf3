import { isSnapshotComment, parseSnapshotComment } from "../../../core/brief/snapshot.js";
import { isStatusComment } from "../../../core/scheduler/status-comment.js";
import type { BotComments } from "./tick-github.js";

/** Issues per comments query, and comments read per issue (an issue with more is read through REST's pages). */
export const COMMENTS_PER_QUERY = 20;
export const commentsQuery = (numbers: readonly number[]): string => `query($owner: String!, $name: String!) { repository(owner: $owner, name: $name) { ${numbers.map((n) => `i${n}: issue(number: ${n}) { comments(first: 100) { totalCount nodes { databaseId body author { __typename login } } } }`).join(" ")} } }`;

/** Bosun's snapshot (its latest) and status comment (its first) among an issue's comments, oldest first. */
export function bosunsComments(all: ReadonlyArray<{ readonly id: number; readonly body: string; readonly bot: boolean }>): BotComments {
  const found: { -readonly [K in keyof BotComments]: BotComments[K] } = {};
  for (const c of all) {
    if (!c.bot) continue;
    if (isSnapshotComment(c.body)) {
      const parsed = parseSnapshotComment(c.body, `comment ${c.id}`);
      found.snapshot = parsed.ok ? { id: c.id, hash: parsed.snapshot.hash } : { id: c.id, hash: "" };
    } else if (isStatusComment(c.body) && found.status === undefined) found.status = { id: c.id, body: c.body };
  }
  return found;
}
