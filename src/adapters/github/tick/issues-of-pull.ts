import { issueOfBranch } from "./issue-of-branch.js";
import type { HeardPull } from "./tick-github.js";

/** `Closes #12`, `fixes #3`, `Resolves #4`: GitHub's closing keywords. */
const CLOSING = /\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\s*:?\s+#(\d+)\b/gi;

/** The issues a pull request is for: those its body closes (`Closes #12`) and the one its branch names. */
export function issuesOfPull(pr: Pick<HeardPull, "body" | "head">): Set<number> {
  const issues = new Set<number>();
  for (const m of (pr.body ?? "").matchAll(CLOSING)) issues.add(Number(m[1]));
  const branch = issueOfBranch(pr.head.ref);
  if (branch !== undefined) issues.add(branch);
  return issues;
}
