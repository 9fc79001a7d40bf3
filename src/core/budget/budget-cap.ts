/**
 * Money caps over windows of time (DESIGN.md, "Budgets"): the fleet's or one pool's spend per UTC
 * day or per week. Amounts are whole micro-dollars inside Bosun, so that adding and taking back
 * reservations a hundred thousand times never drifts past a cap by a rounding error.
 */

/** The windows a cap can cover: a UTC day, or an ISO week (Monday 00:00 UTC to the next). */
export type BudgetWindow = "day" | "week";

export interface BudgetCap {
  /** How the cap is named to people: `--budget-usd`, `budgets.fleet.day_usd`, `budgets.pools.fast.week_usd`. */
  readonly name: string;
  readonly window: BudgetWindow;
  /** The cap, in micro-dollars. */
  readonly micros: number;
  /** The pool it caps; undefined: the whole fleet. */
  readonly pool?: string;
}

const DAY_MS = 86_400_000;

/** Micro-dollars from dollars, rounded to the nearest micro-dollar. */
export function toMicros(usd: number): number {
  return Math.round(usd * 1e6);
}

/** Dollars from micro-dollars. */
export function fromMicros(micros: number): number {
  return micros / 1e6;
}

/**
 * When the window holding `now` began: midnight UTC for a day, Monday midnight UTC for a week.
 * @example windowStart(Date.UTC(2026, 11, 3, 15), "week") === Date.UTC(2026, 10, 30) // a Thursday's week began on Monday
 */
export function windowStart(now: number, window: BudgetWindow): number {
  const day = Math.floor(now / DAY_MS);
  if (window === "day") return day * DAY_MS;
  // 1970-01-01 was a Thursday: three days after a Monday.
  const sinceMonday = (((day + 3) % 7) + 7) % 7;
  return (day - sinceMonday) * DAY_MS;
}

/** When the window holding `now` ends, and its cap starts again from nothing. */
export function windowEnd(now: number, window: BudgetWindow): number {
  return windowStart(now, window) + (window === "day" ? DAY_MS : 7 * DAY_MS);
}

/** Whether a cap counts spend of this pool. */
export function capCovers(cap: BudgetCap, pool: string): boolean {
  return cap.pool === undefined || cap.pool === pool;
}

/** `$1.50`, `$0.042`: dollars as people read them (at most six decimals, no trailing zeros past cents). */
export function formatUsd(micros: number): string {
  const usd = fromMicros(micros);
  const text = usd.toFixed(6).replace(/0+$/, "");
  const [whole, frac = ""] = text.split(".");
  return `$${whole ?? "0"}.${frac.padEnd(2, "0")}`;
}
