/** Where the PR points for its brief: an issue number, a brief id, both, or nothing; `how` says what said so. */
export interface BriefLink {
  readonly issue?: number;
  readonly briefId?: string;
  readonly how: string;
}

const CLOSING = /\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\s*:?\s+#(\d{1,9})\b/i;
const BRANCH_ISSUE = /^(?:bosun\/|(?:.*\/)?issue-)(\d{1,9})(?:-|$)/;
const BRANCH_BRIEF = /^bosun\/([A-Za-z][A-Za-z0-9._-]{0,99})$/;
const LABEL_BRIEF = /^bosun:brief[:/]([A-Za-z0-9][A-Za-z0-9._-]{0,99})$/;

/**
 * Finds the PR's link to its brief: `Closes #n` in the body, a branch `bosun/<n>-…` or `issue-<n>`,
 * a branch `bosun/<brief-id>`, or a label `bosun:brief:<id>`. Only the LINK comes from the PR; the
 * brief itself is read from the bot's snapshot or the base commit.
 */
export function findBriefLink(body: string | null, headRef: string, labels: readonly string[]): BriefLink | undefined {
  const label = labels.map((l) => LABEL_BRIEF.exec(l)?.[1]).find((id) => id !== undefined);
  if (label !== undefined) return { briefId: label, how: `label bosun:brief:${label}` };
  const closing = CLOSING.exec(body ?? "")?.[1];
  if (closing !== undefined) return { issue: Number(closing), briefId: closing, how: `"Closes #${closing}" in the pull request body` };
  const branchIssue = BRANCH_ISSUE.exec(headRef)?.[1];
  if (branchIssue !== undefined) return { issue: Number(branchIssue), briefId: branchIssue, how: `branch ${headRef}` };
  const branchBrief = BRANCH_BRIEF.exec(headRef)?.[1];
  if (branchBrief !== undefined) return { briefId: branchBrief, how: `branch ${headRef}` };
  return undefined;
}

/** What to tell an author whose PR links no brief. */
export const HOW_TO_LINK = "no brief is linked: write `Closes #<issue>` in the pull request body (the issue must carry Bosun's snapshot), name the branch `bosun/<issue>-…` or `bosun/<brief-id>`, or add the label `bosun:brief:<id>` for briefs/<id>.yml on the base branch";
