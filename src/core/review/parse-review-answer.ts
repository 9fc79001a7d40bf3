import { reviewAnswerSchema } from "./review-answer-schema.js";
import type { ReviewAnswer } from "./review-answer-schema.js";
import type { ReviewItem } from "./review-items.js";

/** A reviewer's answer checked against the schema and the brief, or why it is could-not-review. */
export type ParsedReview = { readonly ok: true; readonly answer: ReviewAnswer } | { readonly ok: false; readonly reason: string };

/**
 * Reads the reviewer's text: exactly one JSON object (bare, or alone in one ```json fence), valid
 * against the schema, answering every item once and no other, every evidence path a changed file,
 * every `violated` with evidence. Anything else is could-not-review; no JSON is dug out of prose.
 */
export function parseReviewAnswer(text: string, items: readonly ReviewItem[], changedPaths: ReadonlySet<string>): ParsedReview {
  const body = unfence(text.trim());
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch {
    return { ok: false, reason: `the answer is not JSON: ${excerpt(text)}` };
  }
  const parsed = reviewAnswerSchema.safeParse(data);
  if (!parsed.success) {
    return { ok: false, reason: `the answer does not fit the schema: ${parsed.error.issues.slice(0, 3).map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ")}` };
  }
  const wanted = new Set(items.map((i) => i.id));
  const seen = new Set<string>();
  for (const item of parsed.data.items) {
    if (!wanted.has(item.id)) return { ok: false, reason: `the answer has an item ${item.id} the brief does not` };
    if (seen.has(item.id)) return { ok: false, reason: `the answer has item ${item.id} twice` };
    seen.add(item.id);
    if (item.verdict === "violated" && item.evidence.length === 0) return { ok: false, reason: `${item.id} is violated without evidence` };
    const stray = item.evidence.find((e) => !changedPaths.has(e.path));
    if (stray !== undefined) return { ok: false, reason: `${item.id} cites ${stray.path}, which the diff does not change` };
  }
  const missing = [...wanted].filter((id) => !seen.has(id));
  if (missing.length > 0) return { ok: false, reason: `the answer leaves out ${missing.join(", ")}` };
  return { ok: true, answer: parsed.data };
}

function unfence(text: string): string {
  const fenced = /^```(?:json)?\s*\n([\s\S]*?)\n```$/.exec(text);
  return fenced?.[1] ?? text;
}

function excerpt(text: string): string {
  const one = text.replace(/\s+/g, " ").trim();
  return one.length > 120 ? `${one.slice(0, 120)}…` : one || "(empty)";
}
