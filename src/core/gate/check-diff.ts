import type { CheckResult } from "./check-result.js";
import { checkResult } from "./check-result.js";
import type { DiffGaps } from "./diff-completeness.js";

/** The diff check: could-not-check whenever the file rows are not the whole change, never a silent pass. */
export function checkDiff(gaps: DiffGaps, fileCount: number): CheckResult {
  if (gaps.reasons.length === 0) return checkResult("diff", "passed", `${fileCount} file${fileCount === 1 ? "" : "s"}; rows match the totals and every patch is present`);
  return checkResult(
    "diff",
    "could-not-check",
    gaps.reasons.join("; "),
    gaps.missingPatch.slice(0, 200).map((path) => ({ path, message: "no patch for this file: it could not be checked or reviewed" })),
  );
}
