import type { CheckResult } from "./check-result.js";
import type { GateVerdict } from "./combine-verdict.js";
import { combineVerdict } from "./combine-verdict.js";

/** The gate's whole answer, as the `report` output and `bosun gate --json` give it. */
export interface GateReport {
  readonly v: 1;
  readonly verdict: GateVerdict;
  readonly brief: { readonly id: string; readonly hash: string; readonly source: string } | null;
  readonly checks: readonly CheckResult[];
  /** True when a check says a human must look (a sensitive path) whatever else passed. */
  readonly needs_human: boolean;
}

/** Builds the report; advisory results are shown but do not count toward the verdict. */
export function gateReport(brief: GateReport["brief"], checks: readonly CheckResult[]): GateReport {
  return {
    v: 1,
    verdict: combineVerdict(checks.filter((c) => c.advisory !== true)),
    brief,
    checks,
    needs_human: checks.some((c) => c.needsHuman === true),
  };
}

/** The report for a gate that could not even start (no brief, no diff): could-not-check with the reason. */
export function cannotCheckReport(reason: string, brief: GateReport["brief"] = null): GateReport {
  return { v: 1, verdict: "could-not-check", brief, checks: [{ check: "diff", result: "could-not-check", evidence: reason, annotations: [] }], needs_human: false };
}
