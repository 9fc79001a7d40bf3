import type { Brief } from "../../core/brief/brief.js";
import { formatProblems } from "../../core/brief/brief.js";
import { briefHash, parseBriefYaml } from "../../core/brief/parse-brief.js";
import { isSnapshotComment, parseSnapshotComment } from "../../core/brief/snapshot.js";
import { findBriefLink, HOW_TO_LINK } from "../../core/gate/find-brief-link.js";
import { normalizeLogin } from "../../core/separation/identity.js";
import type { GateReader, PullFacts } from "./gate-github.js";

/** The brief the gate will hold the PR to, with where it came from; or why there is none. */
export type ResolvedBrief =
  | { readonly ok: true; readonly brief: Brief; readonly hash: string; readonly source: string; readonly notes: readonly string[] }
  | { readonly ok: false; readonly reason: string };

/**
 * Loads the brief from a trusted place only: the latest snapshot comment written by the bot on the
 * linked issue, else `briefs/<id>.yml` at the BASE commit. Never the PR's own tree, so a PR that
 * edits its brief is judged by the brief as it was. Snapshot-looking comments by anyone else are ignored.
 */
export async function resolveBrief(github: GateReader, pull: PullFacts, botLogin: string): Promise<ResolvedBrief> {
  const link = findBriefLink(pull.body, pull.headRef, pull.labels);
  if (link === undefined) return { ok: false, reason: HOW_TO_LINK };
  const notes: string[] = [];
  if (link.issue !== undefined) {
    const comments = await github.issueComments(link.issue);
    const bot = normalizeLogin(botLogin);
    const snapshots = comments.filter((c) => isSnapshotComment(c.body));
    for (const c of snapshots) if (normalizeLogin(c.author) !== bot) notes.push(`ignored a snapshot-looking comment by ${c.author} on #${link.issue} (only ${botLogin}'s count)`);
    const latest = snapshots.filter((c) => normalizeLogin(c.author) === bot).at(-1);
    if (latest !== undefined) {
      const parsed = parseSnapshotComment(latest.body, `snapshot comment ${latest.id} on #${link.issue}`);
      if (!parsed.ok) return { ok: false, reason: parsed.reason + (parsed.problems === undefined ? "" : `\n${formatProblems(parsed.problems)}`) };
      return { ok: true, brief: parsed.snapshot.brief, hash: parsed.snapshot.hash, source: `${botLogin}'s snapshot on #${link.issue} (linked by ${link.how})`, notes };
    }
  }
  if (link.briefId !== undefined) {
    const path = `briefs/${link.briefId}.yml`;
    const text = await github.fileAt(path, pull.baseSha);
    if (text !== undefined) {
      const parsed = parseBriefYaml(text, { name: path, defaultId: link.briefId });
      if (!parsed.ok) return { ok: false, reason: `${path} at the base commit is invalid:\n${formatProblems(parsed.problems)}` };
      return { ok: true, brief: parsed.brief, hash: briefHash(parsed.brief), source: `${path} at base ${pull.baseSha.slice(0, 7)} (linked by ${link.how})`, notes };
    }
  }
  const where = [link.issue === undefined ? undefined : `no snapshot by ${botLogin} on #${link.issue}`, link.briefId === undefined ? undefined : `no briefs/${link.briefId}.yml at the base commit`].filter((x) => x !== undefined);
  return { ok: false, reason: [`the ${link.how} links a brief, but there is ${where.join(" and ")}; ${HOW_TO_LINK}`, ...notes].join("\n") };
}
