import type { BudgetWindow } from "./budget-cap.js";
import { windowStart } from "./budget-cap.js";

const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;

/** One running total: what a scope (the fleet, or a pool) used in one window, in micro-dollars. */
export interface Cell {
  used: number;
}

/**
 * One scope's totals per window (the fleet's, or one pool's): a cell per UTC day and per week,
 * found by the window's start. The cell of the window last asked for is kept at hand: nearly every
 * question is about the current day and week, so it is answered without a hash lookup.
 */
export class ScopeTotals {
  private readonly days = new Map<number, Cell>();
  private readonly weeks = new Map<number, Cell>();
  private dayStart = Number.NaN;
  private dayCell: Cell | undefined;
  private weekStart = Number.NaN;
  private weekCell: Cell | undefined;

  /** What the scope used in the window holding `at` (0 when nothing counted there). */
  used(window: BudgetWindow, at: number): number {
    if (window === "day") {
      if (at >= this.dayStart && at < this.dayStart + DAY_MS) return this.dayCell?.used ?? 0;
      return this.days.get(windowStart(at, "day"))?.used ?? 0;
    }
    if (at >= this.weekStart && at < this.weekStart + WEEK_MS) return this.weekCell?.used ?? 0;
    return this.weeks.get(windowStart(at, "week"))?.used ?? 0;
  }

  /** The day's cell holding `at`, made when missing. */
  day(at: number): Cell {
    if (this.dayCell !== undefined && at >= this.dayStart && at < this.dayStart + DAY_MS) return this.dayCell;
    const start = windowStart(at, "day");
    let cell = this.days.get(start);
    if (cell === undefined) this.days.set(start, (cell = { used: 0 }));
    this.dayStart = start;
    this.dayCell = cell;
    return cell;
  }

  /** The week's cell holding `at`, made when missing. */
  week(at: number): Cell {
    if (this.weekCell !== undefined && at >= this.weekStart && at < this.weekStart + WEEK_MS) return this.weekCell;
    const start = windowStart(at, "week");
    let cell = this.weeks.get(start);
    if (cell === undefined) this.weeks.set(start, (cell = { used: 0 }));
    this.weekStart = start;
    this.weekCell = cell;
    return cell;
  }

  /** Each day's total, oldest first. */
  eachDay(): Array<[start: number, cell: Cell]> {
    return [...this.days.entries()].sort((a, b) => a[0] - b[0]);
  }

  /** Forgets the windows that ended before `before`: no cap looks at them again. */
  forget(before: number): void {
    for (const start of this.days.keys()) if (start + DAY_MS <= before) this.days.delete(start);
    for (const start of this.weeks.keys()) if (start + WEEK_MS <= before) this.weeks.delete(start);
    if (this.dayStart + DAY_MS <= before) this.dayCell = undefined;
    if (this.weekStart + WEEK_MS <= before) this.weekCell = undefined;
  }
}
