import type { GateDiff } from "./changed-file.js";
import { fileNames } from "./changed-file.js";
import type { CheckResult } from "./check-result.js";
import { checkResult } from "./check-result.js";
import type { GlobSet } from "./compile-globs.js";
import type { DiffGaps } from "./diff-completeness.js";
import { preview } from "./diff-completeness.js";
import type { LockFileVerdict } from "./lock-files.js";

/**
 * Changed lines (added + deleted, from the totals) minus ignored files' lines, against `size_cap`.
 * Ignored: files the configured globs cover (both names of a rename), and lock files `lockFiles`
 * judged exempt (beside their manifest, outside the brief's code paths); a lock file judged
 * otherwise counts, and the evidence says why. The subtraction needs trustworthy rows, so any gap
 * in the diff makes this could-not-check.
 */
export function checkSize(diff: GateDiff, gaps: DiffGaps, sizeCap: number, ignored: GlobSet, lockFiles: ReadonlyMap<string, LockFileVerdict> = new Map()): CheckResult {
  if (!gaps.countsComplete) return checkResult("size", "could-not-check", `cannot count changed lines: ${gaps.reasons.join("; ")}`);
  const total = diff.totals.additions + diff.totals.deletions;
  let ignoredLines = 0;
  const ignoredNames: string[] = [];
  const countedLocks: string[] = [];
  let largest = diff.files[0];
  for (const file of diff.files) {
    const lock = lockFiles.get(file.path);
    if (lock !== undefined && !lock.exempt && file.additions + file.deletions > 0) countedLocks.push(`${file.path} (${lock.why})`);
    // A rename only escapes the count when both names are ignored: renaming code to `yarn.lock` hides nothing.
    if (fileNames(file).every((name) => ignored.any(name)) || lock?.exempt === true) {
      ignoredLines += file.additions + file.deletions;
      ignoredNames.push(file.path);
    } else if (largest === undefined || file.additions + file.deletions > largest.additions + largest.deletions) {
      largest = file;
    }
  }
  const counted = total - ignoredLines;
  const ignoredNote = (ignoredLines > 0 ? ` (${total} − ${ignoredLines} in ignored ${preview(ignoredNames, 5)})` : "") + (countedLocks.length > 0 ? `; lock files counted: ${preview(countedLocks, 5)}` : "");
  if (counted > sizeCap) {
    const annotations = largest === undefined ? [] : [{ path: largest.path, message: `largest change: ${lines(largest.additions + largest.deletions)} of the ${counted} counted against size_cap ${sizeCap}` }];
    return checkResult("size", "failed", `${counted} changed ${counted === 1 ? "line" : "lines"}${ignoredNote} > size_cap ${sizeCap}`, annotations);
  }
  return checkResult("size", "passed", `${counted} changed ${counted === 1 ? "line" : "lines"}${ignoredNote} ≤ size_cap ${sizeCap}`);
}

function lines(n: number): string {
  return n === 1 ? "1 line" : `${n} lines`;
}
