import { readFile } from "node:fs/promises";
import type { RunCost } from "../../core/journal/run-cost.js";
import { parseReportedCost, runCost } from "../../core/journal/run-cost.js";

/**
 * The cost of a finished run: the wall clock measured by Bosun, plus the tokens and money the
 * worker wrote beside its stop in $BOSUN_RESULT (`{"kind":"done","cost":{"tokens":N,"usd":X}}`).
 * A cost that does not validate is left out and named as `problem`, for the run's evidence: a
 * number the worker got wrong is not journalled as if it had been reported.
 */
export async function costFromResultFile(path: string, wallClockMs: number): Promise<{ cost: RunCost; problem?: string }> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path, "utf8"));
  } catch {
    // No result file, or not JSON: the stop reader reports the latter; the wall clock still counts.
    return { cost: runCost(wallClockMs, undefined) };
  }
  const reported = parseReportedCost(json);
  if (!reported.ok) return { cost: runCost(wallClockMs, undefined), problem: `result file: ${reported.problem}; the reported cost was not recorded` };
  return { cost: runCost(wallClockMs, reported.cost) };
}
