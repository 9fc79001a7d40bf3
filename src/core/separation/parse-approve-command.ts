/** What an `/approve <sha>` comment says: an approval of one commit, malformed, or not a command at all. */
export type ApproveCommand = { readonly kind: "approve"; readonly sha: string } | { readonly kind: "malformed"; readonly line: string } | { readonly kind: "none" };

/**
 * Reads a comment: its first non-blank line must be exactly `/approve <sha>` with the commit's full
 * 40 hex digits. A prefix is refused: an agent that pushes can grind a commit whose first 12 hex
 * digits (48 bits) match an approved one, so only the whole SHA names one commit. Anything else
 * starting with `/approve` is malformed (and never counts).
 * @example parseApproveCommand("/approve " + "0123456789".repeat(4)) → { kind: "approve", sha: "0123…6789" }
 */
export function parseApproveCommand(body: string): ApproveCommand {
  const first = body.split(/\r?\n/).find((line) => line.trim() !== "")?.trim() ?? "";
  if (!/^\/approve\b/i.test(first)) return { kind: "none" };
  const match = /^\/approve ([0-9a-fA-F]{40})$/.exec(first);
  return match?.[1] === undefined ? { kind: "malformed", line: first.slice(0, 80) } : { kind: "approve", sha: match[1].toLowerCase() };
}
