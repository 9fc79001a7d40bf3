import type { CheckResult } from "./check-result.js";

/** The gate's verdict over all its checks. */
export type GateVerdict = "pass" | "fail" | "could-not-check";

/**
 * Combines check results. A failure is certain, so any failed check makes the verdict `fail` even
 * when another could not check (the author has something to fix either way); otherwise any
 * could-not-check makes it `could-not-check`. No checks at all is could-not-check: never a silent pass.
 */
export function combineVerdict(results: readonly CheckResult[]): GateVerdict {
  if (results.length === 0) return "could-not-check";
  if (results.some((r) => r.result === "failed")) return "fail";
  if (results.some((r) => r.result === "could-not-check")) return "could-not-check";
  return "pass";
}
