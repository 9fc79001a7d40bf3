import type { RunCost } from "../../core/journal/run-cost.js";
import { parseReportedCost, runCost } from "../../core/journal/run-cost.js";

/**
 * The cost of a finished run: the wall clock measured by Bosun, plus the tokens and money the
 * worker wrote beside its stop in $BOSUN_RESULT (`{"kind":"done","cost":{"tokens":N,"usd":X}}`).
 * `result` is the result file's JSON as the dispatcher read it (undefined: none, or unreadable) —
 * read once, by the reader that refuses FIFOs and devices, never again here. A cost that does not
 * validate is left out and named as `problem`, for the run's evidence: a number the worker got
 * wrong is not journalled as if it had been reported.
 */
export function costFromResult(result: unknown, wallClockMs: number): { cost: RunCost; problem?: string } {
  if (result === undefined) return { cost: runCost(wallClockMs, undefined) };
  const reported = parseReportedCost(result);
  if (!reported.ok) return { cost: runCost(wallClockMs, undefined), problem: `result file: ${reported.problem}; the reported cost was not recorded` };
  return { cost: runCost(wallClockMs, reported.cost) };
}
