import type { VerifyVerdict } from "../../core/verify/converge.js";
import { closingIssues } from "../../core/verify/closing-issues.js";
import type { ItemLander, RangePulls, Unexamined } from "../../ports/item-lander.js";


/** What landing did, per issue, for the summary and the outputs. */
export interface LandingReport {
  readonly landed: readonly number[];
  readonly needsHuman: readonly number[];
  /** Issue → the pull request that closes it. */
  readonly pulls: ReadonlyMap<number, number>;
  /** Issues past both caps, listed but not touched. */
  readonly skipped: readonly number[];
  /** Issues of pull requests found in the unexamined commits, sent to a human (also in `needsHuman`). */
  readonly fromUnexamined: readonly number[];
  /** Commits of the range that were not examined: items in them may have shipped unlanded. */
  readonly unexamined?: Unexamined;
}

/** Each item costs three writes; GitHub's secondary limit is ~80 content-creating requests a minute. */
export const MAX_ITEMS = 20;

/**
 * Lands the items a deployment carried: the issues closed by the merged pull requests in the
 * range. Verified: closed with the evidence and `bosun:done`. Otherwise: `bosun:needs-human`
 * with the reason. Items past MAX_ITEMS are not closed in this run: the next MAX_ITEMS of them
 * are sent to a human (`overflow` renders why), the rest counted as skipped. `comment` renders
 * the text for one issue (already redacted).
 */
export async function landDeployedItems(
  lander: ItemLander,
  verdict: VerifyVerdict,
  range: RangePulls,
  repo: { readonly owner: string; readonly repo: string },
  comment: (issue: number, pull: number) => string,
  overflow: (issue: number, pull: number) => string = (issue, pull) =>
    `⚠️ #${pull} closing #${issue} was deployed, but one verify run lands at most ${MAX_ITEMS} items: a human needs to land this one.`,
): Promise<LandingReport> {
  const byIssue = new Map<number, number>();
  for (const pull of [...range.pulls].sort((a, b) => a.number - b.number)) {
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
  for (const issue of issues.slice(MAX_ITEMS, MAX_ITEMS * 2)) {
    await lander.markNeedsHuman(issue, overflow(issue, byIssue.get(issue) ?? 0));
    needsHuman.push(issue);
  }
  const skipped = issues.slice(MAX_ITEMS * 2);
  // Items of the unexamined commits that can still be named: never closed unexamined, handed to a
  // human within what is left of the same write budget; past it they are listed as skipped.
  const unexamined = range.unexamined;
  const fromUnexamined: number[] = [];
  for (const pull of [...(unexamined?.pulls ?? [])].sort((a, b) => a.number - b.number)) {
    for (const issue of closingIssues(pull.body, repo)) {
      if (byIssue.has(issue)) continue;
      byIssue.set(issue, pull.number);
      if (landed.length + needsHuman.length >= MAX_ITEMS * 2) {
        skipped.push(issue);
        continue;
      }
      await lander.markNeedsHuman(
        issue,
        `⚠️ #${pull.number} closing #${issue} was deployed, but its commits were not examined by this verify run (${unexamined?.reason ?? "unknown"}): a human needs to check that it is running and land it.`,
      );
      needsHuman.push(issue);
      fromUnexamined.push(issue);
    }
  }
  return { landed, needsHuman, pulls: byIssue, skipped, fromUnexamined, ...(unexamined === undefined ? {} : { unexamined }) };
}
