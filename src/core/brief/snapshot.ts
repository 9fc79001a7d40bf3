import type { Brief, BriefProblem } from "./brief.js";
import { briefHash, parseBriefObject } from "./parse-brief.js";

/** The first line of the bot's snapshot comment on an issue; the intake writes it, the gate reads it. */
export const SNAPSHOT_MARKER = "<!-- bosun:snapshot -->";

/** A brief as the snapshot froze it, with the hash it was approved under. */
export interface BriefSnapshot {
  readonly brief: Brief;
  readonly hash: string;
}

export type SnapshotResult = { readonly ok: true; readonly snapshot: BriefSnapshot } | { readonly ok: false; readonly reason: string; readonly problems?: readonly BriefProblem[] };

/**
 * The snapshot comment's body: the marker, a line for humans, and a ```json block holding
 * `{"brief": {...}, "hash": "sha256:..."}` (the same JSON `bosun brief check` prints).
 */
export function renderSnapshotComment(brief: Brief, note = "Bosun will run this brief as frozen here; later edits to the issue do not change it until it is approved again."): string {
  const json = JSON.stringify({ brief, hash: briefHash(brief) }, null, 2);
  return `${SNAPSHOT_MARKER}\n${note}\n\n\`\`\`json\n${json}\n\`\`\`\n`;
}

/** Whether a comment body is a snapshot (starts with the marker); says nothing of who wrote it. */
export function isSnapshotComment(body: string): boolean {
  return body.trimStart().startsWith(SNAPSHOT_MARKER);
}

/**
 * Reads a snapshot comment: the marker first, one ```json block, a brief that validates, and a hash
 * that matches the brief (so an edited comment is refused, not trusted). The caller must also check
 * that the comment's author is the bot: the marker alone proves nothing.
 */
export function parseSnapshotComment(body: string, source: string): SnapshotResult {
  if (!isSnapshotComment(body)) return { ok: false, reason: `${source} is not a snapshot comment (no ${SNAPSHOT_MARKER})` };
  const block = /^```json[ \t]*\r?\n([\s\S]*?)\r?\n```[ \t]*$/m.exec(body);
  if (block === null) return { ok: false, reason: `${source} has no \`\`\`json block` };
  let data: unknown;
  try {
    data = JSON.parse(block[1] ?? "");
  } catch {
    return { ok: false, reason: `${source}: the json block does not parse` };
  }
  const { brief, hash } = (data ?? {}) as { brief?: unknown; hash?: unknown };
  if (typeof hash !== "string" || !/^sha256:[0-9a-f]{64}$/.test(hash)) return { ok: false, reason: `${source}: the snapshot has no sha256 hash` };
  const parsed = parseBriefObject(brief, { name: source });
  if (!parsed.ok) return { ok: false, reason: `${source}: the snapshot's brief is invalid`, problems: parsed.problems };
  const actual = briefHash(parsed.brief);
  if (actual !== hash) return { ok: false, reason: `${source}: the brief does not match its hash (${hash.slice(0, 19)}… recorded, ${actual.slice(0, 19)}… now): it was edited after the snapshot` };
  return { ok: true, snapshot: { brief: parsed.brief, hash } };
}
