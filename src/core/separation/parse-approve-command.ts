/** What an `/approve <sha>` comment says: an approval of a SHA prefix, malformed, or not a command at all. */
export type ApproveCommand = { readonly kind: "approve"; readonly sha: string } | { readonly kind: "malformed"; readonly line: string } | { readonly kind: "none" };

/**
 * Reads a comment: its first non-blank line must be exactly `/approve <sha>` with 12–40 hex digits.
 * Anything else starting with `/approve` is malformed (and never counts).
 * @example parseApproveCommand("/approve 0123456789ab") → { kind: "approve", sha: "0123456789ab" }
 */
export function parseApproveCommand(body: string): ApproveCommand {
  const first = body.split(/\r?\n/).find((line) => line.trim() !== "")?.trim() ?? "";
  if (!/^\/approve\b/i.test(first)) return { kind: "none" };
  const match = /^\/approve ([0-9a-fA-F]{12,40})$/.exec(first);
  return match?.[1] === undefined ? { kind: "malformed", line: first.slice(0, 80) } : { kind: "approve", sha: match[1].toLowerCase() };
}
