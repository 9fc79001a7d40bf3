import type { Brief } from "../brief/brief.js";
import type { GateDiff } from "../gate/changed-file.js";
import type { Annotation, CheckResult, CheckOutcome } from "../gate/check-result.js";
import { buildReviewPrompt } from "./build-review-prompt.js";
import { detectInjection } from "./detect-injection.js";
import { parseReviewAnswer } from "./parse-review-answer.js";
import type { ReviewAnswer } from "./review-answer-schema.js";
import type { ReviewItem } from "./review-items.js";
import { reviewItems } from "./review-items.js";
import type { Reviewer, ReviewMode } from "./reviewer-port.js";

/**
 * Runs the reviewer and turns its structured answer into the `review` check. The result comes
 * from the per-item verdicts, never from free text: in `blocking` mode a violated item fails and
 * an unclear one or an unreadable answer is could-not-check; in `advisory` mode the check is
 * reported (violations first, as annotations to read first) and never counts toward the verdict.
 * A diff that addresses the reviewer is could-not-check in blocking mode whatever the model said.
 */
export async function runReview(reviewer: Reviewer, mode: ReviewMode, brief: Brief, diff: GateDiff, checks: readonly CheckResult[]): Promise<CheckResult> {
  const advisory = mode === "advisory";
  const done = (result: CheckOutcome, evidence: string, annotations: readonly Annotation[] = []): CheckResult => ({ check: "review", result, evidence: `${reviewer.name}, ${mode}: ${evidence}`, annotations, ...(advisory ? { advisory: true } : {}) });
  const items = reviewItems(brief);
  if (items.length === 0) return done("passed", "the brief has no constraint notes or non-goals to review");
  const injection = detectInjection(diff.files);
  const injectionNotes = injection.map((h) => ({ path: h.path, line: h.line ?? 1, message: `text addressed to the reviewer: "${h.text}"` }));
  const built = buildReviewPrompt(brief, items, diff, checks);
  if (!built.ok) return done("could-not-check", `could not review: ${built.reason}`, injectionNotes);
  const reply = await reviewer.review(built.prompt);
  if (!reply.ok) return done("could-not-check", `could not review: ${reply.reason}`, injectionNotes);
  const parsed = parseReviewAnswer(reply.text, items, new Set(diff.files.map((f) => f.path)));
  if (!parsed.ok) return done("could-not-check", `could not review: ${parsed.reason}`, injectionNotes);
  const { counts, annotations, lines } = summarize(parsed.answer, items);
  const tally = `${counts.violated} violated, ${counts.unclear} unclear, ${counts.satisfied} satisfied`;
  const evidence = [tally, ...lines].join("\n");
  if (injection.length > 0) {
    return done("could-not-check", `the diff contains ${injection.length} line${injection.length === 1 ? "" : "s"} addressed to the reviewer; a human must read it. ${evidence}`, [...injectionNotes, ...annotations]);
  }
  if (counts.violated > 0) return done("failed", evidence, annotations);
  if (counts.unclear > 0) return done("could-not-check", evidence, annotations);
  return done("passed", evidence, annotations);
}

function summarize(answer: ReviewAnswer, items: readonly ReviewItem[]) {
  const text = new Map(items.map((i) => [i.id, i.text]));
  const counts = { satisfied: 0, violated: 0, unclear: 0 };
  const annotations: Annotation[] = [];
  const order = { violated: 0, unclear: 1, satisfied: 2 } as const;
  const sorted = [...answer.items].sort((a, b) => order[a.verdict] - order[b.verdict] || a.id.localeCompare(b.id));
  const lines: string[] = [];
  for (const item of sorted) {
    counts[item.verdict]++;
    lines.push(`${item.id} ${item.verdict}: ${text.get(item.id) ?? ""}${item.evidence[0] === undefined ? "" : ` (${item.evidence[0].path}${item.evidence[0].line === undefined ? "" : `:${item.evidence[0].line}`})`}`);
    if (item.verdict === "satisfied") continue;
    for (const e of item.evidence) annotations.push({ path: e.path, ...(e.line === undefined ? {} : { line: e.line }), message: `${item.id} ${item.verdict} (${text.get(item.id) ?? ""}): ${e.why}` });
  }
  return { counts, annotations, lines };
}
