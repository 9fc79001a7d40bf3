import { acceptance } from "./acceptance.js";
import type { Cost, JournalRecord } from "./journal-record.js";

type Unit = keyof Cost;
const UNITS: readonly Unit[] = ["tokens", "usd", "wall_clock_s"];

/** What the fleet spent and what it got for it, over one window. */
export interface CostPerAcceptedTask {
  /** LAND events: every run, failed and unaccepted ones included, since they all cost. */
  readonly runs: number;
  /** Distinct items accepted: landed ok and their latest gate passed (see costPerAcceptedTask). */
  readonly accepted_tasks: number;
  /** Items that landed ok with no GATE in the window: no verdict yet, so not accepted — data the figure lacks. */
  readonly landed_ok_not_gated: number;
  /** Items that landed ok whose latest GATE failed or could not check. */
  readonly landed_ok_gate_not_passed: number;
  readonly total: Readonly<Record<Unit, number>>;
  /** Runs that did not report this unit: when above 0, the total is a lower bound. */
  readonly runs_missing: Readonly<Record<Unit, number>>;
  /** total ÷ accepted_tasks; null with no accepted task or when no run reported the unit. */
  readonly per_accepted_task: Readonly<Record<Unit, number | null>>;
}

/**
 * Cost per *accepted* task, not per run: the cost of every run landed in the window (from the
 * `cost` of its LAND event) divided by the number of distinct items accepted in it. An item is
 * accepted when it has a LAND with `ok: true` (and not fenced) in the window and its latest GATE
 * in the window (by time, then by line) is `pass`. Landing ok is the worker's claim, not an
 * acceptance: an item with no GATE is counted apart (`landed_ok_not_gated`), never as accepted.
 */
export function costPerAcceptedTask(records: readonly JournalRecord[]): CostPerAcceptedTask {
  const total: Record<Unit, number> = { tokens: 0, usd: 0, wall_clock_s: 0 };
  const missing: Record<Unit, number> = { tokens: 0, usd: 0, wall_clock_s: 0 };
  let runs = 0;
  for (const r of records) {
    if (r.event !== "LAND") continue;
    runs += 1;
    for (const unit of UNITS) {
      const value = r.cost?.[unit];
      if (value === undefined) missing[unit] += 1;
      else total[unit] += value;
    }
  }
  const { accepted: acceptedItems, notGated, notPassed } = acceptance(records);
  const accepted = acceptedItems.size;
  const per = (unit: Unit): number | null => (accepted === 0 || missing[unit] === runs ? null : total[unit] / accepted);
  return {
    runs,
    accepted_tasks: accepted,
    landed_ok_not_gated: notGated.size,
    landed_ok_gate_not_passed: notPassed.size,
    total,
    runs_missing: missing,
    per_accepted_task: { tokens: per("tokens"), usd: per("usd"), wall_clock_s: per("wall_clock_s") },
  };
}
