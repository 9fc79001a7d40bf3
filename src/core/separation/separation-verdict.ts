import type { CandidateAnalysis, NotCounted } from "./separation-candidates.js";
import type { PermissionAnswer } from "./separation-facts.js";

/** The commit status `bosun/separation` to post, with who counted, who did not, and why. */
export interface SeparationVerdict {
  readonly state: "success" | "pending" | "failure" | "error";
  /** ≤ 140 characters, as a commit status allows. */
  readonly description: string;
  readonly counted: readonly string[];
  readonly notCounted: readonly NotCounted[];
  readonly reasons: readonly string[];
}

const WRITE = new Set<PermissionAnswer>(["admin", "maintain", "write"]);

/**
 * Phase two: candidates with write access (read through the API) count. Fail closed: a fact that
 * could not be read whole (who pushed) or a permission that could not be read is `error`; a blocker
 * is `failure`; too few approvals is `pending`.
 * Nothing ever succeeds with fewer than `required` approvals, except a PR whose author is on the
 * explicit `human-authors` list and that nothing marks as agent work: an agent on a user account
 * with an ordinary branch name looks exactly like a human, so "no agent mark" alone proves nothing.
 */
export function separationVerdict(analysis: CandidateAnalysis, permissions: ReadonlyMap<string, PermissionAnswer>, required: number): SeparationVerdict {
  const counted: string[] = [];
  const notCounted: NotCounted[] = [...analysis.notCounted];
  const unread: string[] = [];
  for (const c of analysis.candidates) {
    const permission = permissions.get(c.login) ?? "error";
    if (permission === "error") unread.push(c.login);
    else if (WRITE.has(permission)) counted.push(c.login);
    else notCounted.push({ login: c.login, why: `has ${permission} permission, not write` });
  }
  const tail = notCounted.length > 0 ? ` · not counted: ${notCounted.map((n) => `${n.login} (${n.why})`).join(", ")}` : "";
  const reasons = [...analysis.blockers];
  if (analysis.unknowns.length > 0) {
    reasons.push(...analysis.unknowns);
    return { state: "error", description: short(`could not check: ${analysis.unknowns.join("; ")}`), counted, notCounted, reasons };
  }
  if (unread.length > 0) {
    reasons.push(`could not read the permission of ${unread.join(", ")}`);
    return { state: "error", description: short(`could not read permissions of ${unread.join(", ")}`), counted, notCounted, reasons };
  }
  if (analysis.blockers.length > 0) return { state: "failure", description: short(analysis.blockers.join("; ")), counted, notCounted, reasons };
  if (analysis.agentWork.length === 0 && analysis.humanAuthor === true) return { state: "success", description: "a listed human author's work: separation does not apply", counted, notCounted, reasons: ["the author is in human-authors and no agent identity authored, committed or approved it"] };
  const who = counted.length > 0 ? `: ${counted.join(", ")}` : "";
  if (counted.length >= required) return { state: "success", description: short(`${counted.length} independent approval${counted.length === 1 ? "" : "s"}${who}${tail}`), counted, notCounted, reasons };
  reasons.push(`${analysis.agentWork.length > 0 ? `agent work (${analysis.agentWork.join("; ")})` : "work by an author not in human-authors (an agent may use a user account)"} needs ${required} approval${required === 1 ? "" : "s"} of the current head from someone who did not write it`);
  return { state: "pending", description: short(`${counted.length}/${required} independent approvals${who}${tail}`), counted, notCounted, reasons };
}

function short(text: string): string {
  return text.length <= 140 ? text : `${text.slice(0, 139)}…`;
}
