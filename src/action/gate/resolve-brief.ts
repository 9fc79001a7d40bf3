import type { Brief } from "../../core/brief/brief.js";
import { formatProblems } from "../../core/brief/brief.js";
import { briefHash, parseBriefYaml } from "../../core/brief/parse-brief.js";
import type { SnapshotResult } from "../../core/brief/snapshot.js";
import { isSnapshotComment, parseSnapshotComment } from "../../core/brief/snapshot.js";
import { HOW_TO_LINK } from "../../core/gate/find-brief-link.js";
import { normalizeLogin } from "../../core/separation/identity.js";
import type { DispatchedItem } from "./find-dispatched-item.js";
import type { GateReader, IssueComment, PullFacts } from "../../ports/gate-github.js";

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
  const recorded = item.claim.briefHash;
  const fail = (reason: string): ResolvedBrief => ({ ok: false, reason: [reason, ...notes].join("\n") });
  if (recorded === undefined) return fail(`the claim record on ${item.claimRef} holds no brief hash (written before brief hashes), so nothing shows which brief was approved: dispatch #${item.issue} again`);
  if (latest === undefined) return fail(`there is no snapshot by ${botLogin} on #${item.issue} (item named by ${item.how})`);
  if (!latest.parsed.ok) return fail(latest.parsed.reason + (latest.parsed.problems === undefined ? "" : `\n${formatProblems(latest.parsed.problems)}`));
  // The claim ref sits outside rulesets: a writer can force it back to an older claim commit the bot
  // really signed, whose hash names a looser brief approved earlier. The record counts only for the
  // item's current approval — its latest snapshot, never edited — and a re-approval after dispatch
  // (or a replayed claim) is could-not-check until Bosun dispatches again.
  if (edited(latest.comment)) return fail(`the latest snapshot on #${item.issue} (comment ${latest.comment.id}) was edited after it was written (created ${latest.comment.createdAt}, updated ${latest.comment.updatedAt}): an edited snapshot is not the approved brief; approve the item again`);
  if (latest.parsed.snapshot.hash !== recorded) {
    const older = snapshots.some((s) => s.parsed.ok && s.parsed.snapshot.hash === recorded);
    return fail(`the brief hash on ${item.claimRef} (${recorded.slice(0, 19)}…) is not the latest approved snapshot of #${item.issue} (${latest.parsed.snapshot.hash.slice(0, 19)}…): ${older ? "it names an earlier approval — the item was re-approved after this dispatch, or an older claim was put back on the ref" : "no snapshot by the bot has it"}; dispatch the item again`);
  }
  // The brief's claim key is the key Bosun claimed it under: a signed claim of another item, copied onto this ref, is not this item's record.
  if (item.claim.key !== undefined && item.claim.key !== latest.parsed.snapshot.brief.claim_key && item.claim.key !== String(item.issue)) return fail(`the claim record on ${item.claimRef} is for key '${item.claim.key}', not #${item.issue}'s claim key '${latest.parsed.snapshot.brief.claim_key}': another item's claim was put on this ref`);
  return { ok: true, brief: latest.parsed.snapshot.brief, hash: recorded, source: `${botLogin}'s latest snapshot on #${item.issue}, hash as recorded on ${item.claimRef} (item named by ${item.how})`, notes };
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
