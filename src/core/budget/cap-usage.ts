import type { BudgetCap, BudgetWindow } from "./budget-cap.js";
import { fromMicros, windowEnd, windowStart } from "./budget-cap.js";
import type { SpendBook } from "./spend-book.js";

/** What one window of the fleet used, and what one cap has left in it: US dollars, times in ISO. */
export interface WindowUsage {
  readonly window: BudgetWindow;
  readonly start: string;
  readonly resets: string;
  /** Settled spend, and what runs in flight reserved: together what a cap of this window counts. */
  readonly spent_usd: number;
  readonly reserved_usd: number;
}

export interface CapUsage extends WindowUsage {
  readonly cap: string;
  /** The pool it caps; absent: the whole fleet. */
  readonly pool?: string;
  readonly cap_usd: number;
  readonly left_usd: number;
  /** (spent + reserved) ÷ cap; above 1 when an agent overran its share. */
  readonly used_share: number | null;
}

const FLEET_DAY: BudgetCap = { name: "fleet day", window: "day", micros: Number.MAX_SAFE_INTEGER };
const FLEET_WEEK: BudgetCap = { name: "fleet week", window: "week", micros: Number.MAX_SAFE_INTEGER };

function usage(book: SpendBook, cap: BudgetCap, now: number): WindowUsage & { used: number } {
  const used = book.rooms([cap], now)[0]?.used ?? 0;
  const reserved = book.reserved(cap, now);
  const iso = (ms: number): string => new Date(ms).toISOString();
  return { window: cap.window, start: iso(windowStart(now, cap.window)), resets: iso(windowEnd(now, cap.window)), spent_usd: fromMicros(used - reserved), reserved_usd: fromMicros(reserved), used };
}

/** The fleet's spend in the UTC day and the week holding `now`, whatever caps there are. */
export function fleetWindows(book: SpendBook, now: number): WindowUsage[] {
  return [FLEET_DAY, FLEET_WEEK].map((cap) => {
    const { used: _used, ...rest } = usage(book, cap, now);
    return rest;
  });
}

/** Each cap's use of its window holding `now`, and what it has left. */
export function capUsage(book: SpendBook, caps: readonly BudgetCap[], now: number): CapUsage[] {
  return caps.map((cap) => {
    const { used, ...rest } = usage(book, cap, now);
    return {
      cap: cap.name,
      ...(cap.pool === undefined ? {} : { pool: cap.pool }),
      ...rest,
      cap_usd: fromMicros(cap.micros),
      left_usd: fromMicros(Math.max(0, cap.micros - used)),
      used_share: cap.micros > 0 ? used / cap.micros : null,
    };
  });
}
