import type { VerifyVerdict } from "../../core/verify/converge.js";
import { closingIssues } from "../../core/verify/closing-issues.js";
import type { ItemLander, MergedPull } from "./item-lander.js";

/** What landing did, per issue, for the summary and the outputs. */
export interface LandingReport {
  readonly landed: readonly number[];
  readonly needsHuman: readonly number[];
  /** Issue → the pull request that closes it. */
  readonly pulls: ReadonlyMap<number, number>;
  /** Issues past the cap, listed but not touched. */
  readonly skipped: readonly number[];
}

/** Each item costs three writes; GitHub's secondary limit is ~80 content-creating requests a minute. */
export const MAX_ITEMS = 20;

/**
 * Lands the items a deployment carried: the issues closed by the merged pull requests in the
 * range. Verified: closed with the evidence and `bosun:done`. Otherwise: `bosun:needs-human`
 * with the reason. `comment` renders the text for one issue (already redacted).
 */
export async function landDeployedItems(
  lander: ItemLander,
  verdict: VerifyVerdict,
  pulls: readonly MergedPull[],
  repo: { readonly owner: string; readonly repo: string },
  comment: (issue: number, pull: number) => string,
): Promise<LandingReport> {
  const byIssue = new Map<number, number>();
  for (const pull of [...pulls].sort((a, b) => a.number - b.number)) {
    for (const issue of closingIssues(pull.body, repo)) if (!byIssue.has(issue)) byIssue.set(issue, pull.number);
  }
  const issues = [...byIssue.keys()];
  const landed: number[] = [];
  const needsHuman: number[] = [];
  for (const issue of issues.slice(0, MAX_ITEMS)) {
    const text = comment(issue, byIssue.get(issue) ?? 0);
    if (verdict.kind === "verified") {
      await lander.landItem(issue, text);
      landed.push(issue);
    } else {
      await lander.markNeedsHuman(issue, text);
      needsHuman.push(issue);
    }
  }
  return { landed, needsHuman, pulls: byIssue, skipped: issues.slice(MAX_ITEMS) };
}
