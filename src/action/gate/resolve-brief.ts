import type { Brief } from "../../core/brief/brief.js";
import { formatProblems } from "../../core/brief/brief.js";
import { briefHash, parseBriefYaml } from "../../core/brief/parse-brief.js";
import type { SnapshotResult } from "../../core/brief/snapshot.js";
import { isSnapshotComment, parseSnapshotComment } from "../../core/brief/snapshot.js";
import { HOW_TO_LINK } from "../../core/gate/find-brief-link.js";
import { normalizeLogin } from "../../core/separation/identity.js";
import type { DispatchedItem } from "./find-dispatched-item.js";
import type { GateReader, IssueComment, PullFacts } from "./gate-github.js";

/** The brief the gate will hold the PR to, with where it came from; or why there is none. */
export type ResolvedBrief =
  | { readonly ok: true; readonly brief: Brief; readonly hash: string; readonly source: string; readonly notes: readonly string[] }
  | { readonly ok: false; readonly reason: string };

type ParsedSnapshot = { readonly comment: IssueComment; readonly parsed: SnapshotResult };

/**
 * Loads the brief of the item Bosun's record names (find-dispatched-item.ts), from a trusted place
 * only: the bot's snapshot on that item, checked against the hash the claim record holds, or
 * `briefs/<id>.yml` at the BASE commit for a branch `bosun/<id>`. Never the PR's tree or its hints.
 */
export async function resolveBrief(github: GateReader, pull: PullFacts, botLogin: string, item: DispatchedItem): Promise<ResolvedBrief> {
  if (!item.ok) return { ok: false, reason: `${item.reason}\n${HOW_TO_LINK}` };
  if (item.kind === "brief") return briefAtBase(github, pull, item.briefId, item.how);
  const notes: string[] = [];
  const bot = normalizeLogin(botLogin);
  const comments = (await github.issueComments(item.issue)).filter((c) => isSnapshotComment(c.body));
  for (const c of comments) if (normalizeLogin(c.author) !== bot) notes.push(`ignored a snapshot-looking comment by ${c.author} on #${item.issue} (only ${botLogin}'s count)`);
  const snapshots: ParsedSnapshot[] = comments.filter((c) => normalizeLogin(c.author) === bot).map((comment) => ({ comment, parsed: parseSnapshotComment(comment.body, `snapshot comment ${comment.id} on #${item.issue}`) }));
  const latest = snapshots.at(-1);
  const recorded = item.claim?.briefHash;
  const fail = (reason: string): ResolvedBrief => ({ ok: false, reason: [reason, ...notes].join("\n") });

  if (recorded !== undefined) {
    // The claim record froze the hash at dispatch: only a snapshot with that hash is the approved brief.
    const match = snapshots.filter((s) => s.parsed.ok && s.parsed.snapshot.hash === recorded).at(-1);
    if (match === undefined || !match.parsed.ok) {
      const seen = latest === undefined ? `there is no snapshot by ${botLogin} on #${item.issue}` : latest.parsed.ok ? `the latest snapshot (comment ${latest.comment.id}${edited(latest.comment) ? `, edited ${latest.comment.updatedAt}` : ""}) has ${latest.parsed.snapshot.hash.slice(0, 19)}…` : latest.parsed.reason;
      return fail(`the brief hash recorded when Bosun dispatched #${item.issue} (${recorded.slice(0, 19)}… on ${item.claimRef}) matches no snapshot by ${botLogin}: ${seen}. An edited snapshot is not the approved brief; approve the item again`);
    }
    if (edited(match.comment)) notes.push(`snapshot comment ${match.comment.id} was edited (${match.comment.updatedAt}), but its brief still has the recorded hash`);
    return { ok: true, brief: match.parsed.snapshot.brief, hash: recorded, source: `${botLogin}'s snapshot on #${item.issue}, hash as recorded on ${item.claimRef} (item named by ${item.how})`, notes };
  }

  // No hash to check against: a claim record from before brief hashes, or none at all (a branch
  // bosun/<n>-… that no claim names yet). Only the bot's latest snapshot, never edited, will do.
  const why = item.claim === undefined ? `there is no claim record on ${item.claimRef}` : `the claim record on ${item.claimRef} holds no brief hash`;
  if (latest === undefined) return fail(`there is no snapshot by ${botLogin} on #${item.issue} (item named by ${item.how})`);
  if (!latest.parsed.ok) return fail(latest.parsed.reason + (latest.parsed.problems === undefined ? "" : `\n${formatProblems(latest.parsed.problems)}`));
  if (edited(latest.comment)) return fail(`snapshot comment ${latest.comment.id} on #${item.issue} was edited after it was written (created ${latest.comment.createdAt}, updated ${latest.comment.updatedAt}) and ${why}, so nothing shows it is the brief that was approved: approve the item again`);
  notes.push(`${why}: trusted ${botLogin}'s latest snapshot on #${item.issue}, which was never edited`);
  return { ok: true, brief: latest.parsed.snapshot.brief, hash: latest.parsed.snapshot.hash, source: `${botLogin}'s snapshot on #${item.issue} (item named by ${item.how}; ${why})`, notes };
}

const edited = (c: IssueComment): boolean => c.updatedAt !== "" && c.updatedAt !== c.createdAt;

async function briefAtBase(github: GateReader, pull: PullFacts, briefId: string, how: string): Promise<ResolvedBrief> {
  const path = `briefs/${briefId}.yml`;
  const text = await github.fileAt(path, pull.baseSha);
  if (text === undefined) return { ok: false, reason: `${how} names brief ${briefId}, but there is no ${path} at the base commit ${pull.baseSha.slice(0, 7)}; ${HOW_TO_LINK}` };
  const parsed = parseBriefYaml(text, { name: path, defaultId: briefId });
  if (!parsed.ok) return { ok: false, reason: `${path} at the base commit is invalid:\n${formatProblems(parsed.problems)}` };
  return { ok: true, brief: parsed.brief, hash: briefHash(parsed.brief), source: `${path} at base ${pull.baseSha.slice(0, 7)} (named by ${how})`, notes: [] };
}
