import type { Brief, BriefProblem, BriefResult } from "../brief/brief.js";
import { problemText } from "../brief/brief.js";
import type { BriefSnapshot } from "../brief/snapshot.js";
import { canonicalJson } from "../util/canonical-json.js";

/** First line of the bot's comment listing a brief's problems. */
export const INVALID_MARKER = "<!-- bosun:invalid-brief -->";
/** First line of the bot's comment saying an issue is held after an edit. */
export const HOLD_MARKER = "<!-- bosun:hold -->";

/**
 * A fenced block that the text cannot break out of: the fence is longer than any run of backticks
 * inside. Problems quote what the issue author wrote, so they are shown as code, never rendered
 * (no @mentions, links, images or HTML from the body reach the comment as markup).
 */
export function codeBlock(text: string): string {
  let longest = 0;
  let run = 0;
  for (const c of text) {
    run = c === "`" ? run + 1 : 0;
    if (run > longest) longest = run;
  }
  const fence = "`".repeat(Math.max(3, longest + 1));
  return `${fence}text\n${text}\n${fence}`;
}

/** The one comment listing every problem of a brief, each by field. */
export function renderProblemsComment(problems: readonly BriefProblem[], readyLabel: string): string {
  const lines = problems.map(problemText);
  const count = problems.length === 1 ? "1 problem" : `${problems.length} problems`;
  return [
    INVALID_MARKER,
    `**Bosun could not queue this brief** (${count}). Fix the issue, then remove and add \`${readyLabel}\` again.`,
    "",
    codeBlock(lines.join("\n")),
    "",
  ].join("\n");
}

/** Top-level brief fields whose values differ (`goal`, `constraints`, ...), in a stable order. */
export function changedFields(before: Brief, after: Brief): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  const a = before as unknown as Record<string, unknown>;
  const b = after as unknown as Record<string, unknown>;
  return [...keys].filter((k) => canonicalJson(a[k]) !== canonicalJson(b[k])).sort();
}

/**
 * The comment that holds an item whose issue changed after the snapshot (or after the label that
 * approved it): the frozen brief still stands, and nothing runs until a writer re-approves.
 * `bodyHash` names the text seen, so each distinct edit has a distinct notice.
 */
export function renderHoldNotice(snapshot: BriefSnapshot | undefined, current: BriefResult, bodyHash: string, readyLabel: string): string {
  let what: string;
  if (!current.ok) what = `The issue's new text is not a valid brief (${current.problems.length} problem${current.problems.length === 1 ? "" : "s"}).`;
  else if (snapshot === undefined) what = "The issue's text changed after it was approved, before Bosun froze it.";
  else what = `Changed fields: ${changedFields(snapshot.brief, current.brief).map((f) => `\`${f}\``).join(", ") || "(none)"}.`;
  const frozen = snapshot === undefined ? "Nothing was queued from the changed text." : `The frozen brief (\`${snapshot.hash.slice(0, 19)}…\`) is unchanged.`;
  return [
    `${HOLD_MARKER}`,
    `<!-- bosun:hold-text ${bodyHash} -->`,
    `**Held:** this issue was edited after its brief was approved. ${what}`,
    "",
    `${frozen} Bosun will not dispatch this item until someone with write access re-approves the current text by removing and adding \`${readyLabel}\`.`,
    "",
    // The problems themselves, so the author can fix them without approving to find out.
    ...(current.ok ? [] : [codeBlock(current.problems.map(problemText).join("\n")), ""]),
  ].join("\n");
}
