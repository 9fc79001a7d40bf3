import type { PullHints } from "./find-brief-link.js";

/** What names the work a pull request is for, before any claim record is read. */
export interface ItemEvidence {
  /** The PR's head branch. */
  readonly headRef: string;
  /** The `item` input of a trusted workflow_dispatch run, when the gate was dispatched for one. */
  readonly dispatchItem?: string;
  readonly hints: PullHints;
  /** The head lives in another repository (a fork, or a deleted one): its branch name is its author's, not Bosun's. */
  readonly fromFork?: boolean;
}

/**
 * Which item the PR is for, and how sure that is:
 * - `issue`: named by Bosun (a dispatch input, or the branch `bosun/<n>-…` it names);
 * - `hinted`: only the PR's `Closes #n` says so — it counts only if a claim record shows Bosun
 *   dispatched that item;
 * - `brief`: a branch `bosun/<brief-id>`, judged by `briefs/<id>.yml` at the base commit;
 * - `none` / `conflict`: no brief, with the reason (could-not-check).
 */
export type NamedItem =
  | { readonly kind: "issue"; readonly issue: number; readonly how: string }
  | { readonly kind: "hinted"; readonly issue: number; readonly how: string }
  | { readonly kind: "brief"; readonly briefId: string; readonly how: string }
  | { readonly kind: "none"; readonly reason: string }
  | { readonly kind: "conflict"; readonly reason: string };

const BRANCH_ISSUE = /^bosun\/(\d{1,9})(?:-|$)/;
const BRANCH_BRIEF = /^bosun\/([A-Za-z][A-Za-z0-9._-]{0,99})$/;
const DISPATCH_ISSUE = /^#?(\d{1,9})$/;
const DISPATCH_BRIEF = /^[A-Za-z][A-Za-z0-9._-]{0,99}$/;

type Named = { issue: number; how: string } | { briefId: string; how: string };

function fromDispatch(item: string): Named | { bad: string } {
  const issue = DISPATCH_ISSUE.exec(item)?.[1];
  if (issue !== undefined) return { issue: Number(issue), how: `the dispatch input item=${item}` };
  if (DISPATCH_BRIEF.test(item)) return { briefId: item, how: `the dispatch input item=${item}` };
  return { bad: `the dispatch input item='${item.slice(0, 40)}' is neither an issue number nor a brief id` };
}

function fromBranch(headRef: string): Named | undefined {
  const issue = BRANCH_ISSUE.exec(headRef)?.[1];
  if (issue !== undefined) return { issue: Number(issue), how: `branch ${headRef}` };
  const briefId = BRANCH_BRIEF.exec(headRef)?.[1];
  return briefId === undefined ? undefined : { briefId, how: `branch ${headRef}` };
}

const label = (n: Named): string => ("issue" in n ? `#${n.issue}` : `brief ${n.briefId}`);
const same = (a: Named, b: Named): boolean => ("issue" in a && "issue" in b ? a.issue === b.issue : "briefId" in a && "briefId" in b ? a.briefId === b.briefId : false);

/**
 * Names the item from Bosun's side first (dispatch input, then the branch Bosun named); the PR's
 * hints may only agree. A hint that disagrees is a conflict: judging by it would let the PR pick a
 * looser brief, or a requester who did not ask for this work.
 * @example nameItem({ headRef: "bosun/5-fix", hints: { issues: [7], briefLabels: [] } }) → conflict
 */
export function nameItem(evidence: ItemEvidence): NamedItem {
  const dispatched = evidence.dispatchItem === undefined || evidence.dispatchItem.trim() === "" ? undefined : fromDispatch(evidence.dispatchItem.trim());
  if (dispatched !== undefined && "bad" in dispatched) return { kind: "conflict", reason: dispatched.bad };
  // Bosun names branches in the base repository; a fork can name its branch anything.
  const branch = evidence.fromFork === true ? undefined : fromBranch(evidence.headRef);
  if (dispatched !== undefined && branch !== undefined && !same(dispatched, branch)) {
    return { kind: "conflict", reason: `${dispatched.how} names ${label(dispatched)} but ${branch.how} names ${label(branch)}` };
  }
  const trusted = dispatched ?? branch;
  const { issues, briefLabels } = evidence.hints;
  if (trusted !== undefined) {
    if ("issue" in trusted) {
      const other = issues.find((n) => n !== trusted.issue);
      if (other !== undefined) return { kind: "conflict", reason: `the pull request says "Closes #${other}", but Bosun dispatched it for #${trusted.issue} (${trusted.how}): the PR does not choose its brief` };
      const badLabel = briefLabels.find((id) => id !== String(trusted.issue));
      if (badLabel !== undefined) return { kind: "conflict", reason: `the label bosun:brief:${badLabel} disagrees with #${trusted.issue} (${trusted.how}): the PR does not choose its brief` };
      return { kind: "issue", issue: trusted.issue, how: trusted.how };
    }
    const badLabel = briefLabels.find((id) => id !== trusted.briefId);
    if (badLabel !== undefined) return { kind: "conflict", reason: `the label bosun:brief:${badLabel} disagrees with brief ${trusted.briefId} (${trusted.how})` };
    return { kind: "brief", briefId: trusted.briefId, how: trusted.how };
  }
  if (evidence.fromFork === true) return { kind: "none", reason: "the pull request comes from a fork: its branch name and its links are its author's choice, so only a trusted workflow_dispatch input `item` names its item" };
  if (issues.length > 1) return { kind: "conflict", reason: `the pull request closes ${issues.map((n) => `#${n}`).join(", ")}: with no item named by Bosun, one brief cannot be chosen` };
  const [only] = issues;
  if (only !== undefined) {
    const badLabel = briefLabels.find((id) => id !== String(only));
    if (badLabel !== undefined) return { kind: "conflict", reason: `the label bosun:brief:${badLabel} disagrees with "Closes #${only}"` };
    return { kind: "hinted", issue: only, how: `"Closes #${only}" in the pull request body` };
  }
  if (briefLabels.length > 0) return { kind: "none", reason: `the label bosun:brief:${briefLabels[0] ?? ""} alone does not choose a brief (name the branch bosun/<id>)` };
  return { kind: "none", reason: "nothing ties this pull request to an item Bosun dispatched or a brief on the base branch" };
}

/**
 * Every issue anything names as this PR's item — the dispatch input, the branch, and each hint —
 * for separation, where excluding the requesters of all of them is the safe error: a PR can add
 * people who may not approve it, never remove the ones who asked for the work.
 */
export function namedIssues(evidence: ItemEvidence): number[] {
  const out = new Set<number>();
  const dispatched = evidence.dispatchItem === undefined ? undefined : DISPATCH_ISSUE.exec(evidence.dispatchItem.trim())?.[1];
  if (dispatched !== undefined) out.add(Number(dispatched));
  const branch = BRANCH_ISSUE.exec(evidence.headRef)?.[1];
  if (branch !== undefined) out.add(Number(branch));
  for (const n of evidence.hints.issues) out.add(n);
  return [...out];
}
