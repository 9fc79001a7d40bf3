/** What the pull request itself says about its work: every issue it closes and every brief label. */
export interface PullHints {
  readonly issues: readonly number[];
  readonly briefLabels: readonly string[];
}

const CLOSING = /\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\s*:?\s+#(\d{1,9})\b/gi;
const LABEL_BRIEF = /^bosun:brief[:/]([A-Za-z0-9][A-Za-z0-9._-]{0,99})$/;

/**
 * The PR's own hints: `Closes #n` (every one, not just the first) and `bosun:brief:<id>` labels.
 * The author controls all of them, so they may only AGREE with Bosun's record (see
 * resolve-trusted-item.ts): a hint never chooses the brief.
 */
export function findPullHints(body: string | null, labels: readonly string[]): PullHints {
  const issues = [...new Set([...(body ?? "").matchAll(CLOSING)].map((m) => Number(m[1])))];
  const briefLabels = [...new Set(labels.map((l) => LABEL_BRIEF.exec(l)?.[1]).filter((id): id is string => id !== undefined))];
  return { issues, briefLabels };
}

/** What to tell an author whose PR the gate cannot tie to a brief. */
export const HOW_TO_LINK =
  "no brief: the gate judges a pull request only by a brief Bosun holds — the approved snapshot of the item Bosun dispatched (branch `bosun/<issue>-…`, a workflow_dispatch `item` input, or an item with a claim record that the PR closes), or briefs/<id>.yml on the base branch for a branch named `bosun/<id>`. A `Closes #n` or a `bosun:brief:<id>` label alone never chooses it";
