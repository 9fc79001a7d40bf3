import type { CapUsage, WindowUsage } from "../budget/cap-usage.js";
import { capUsage, fleetWindows } from "../budget/cap-usage.js";
import { fromMicros } from "../budget/budget-cap.js";
import type { RecordedCaps } from "../budget/recorded-caps.js";
import { SpendBook } from "../budget/spend-book.js";
import type { MoneyMetrics } from "./money-metrics.js";

/** The money lines of `bosun stats`: spend against the caps now, and where the window's money went. */
export interface MoneyReport extends MoneyMetrics {
  readonly now: string;
  /** What the state folder's spend ledger counts now: the fleet's day and week, and each recorded cap. */
  readonly ledger: { readonly found: boolean; readonly windows: readonly WindowUsage[]; readonly caps: readonly CapUsage[] };
  /** Which drain set the caps, and when; null when no drain under a budget recorded any. */
  readonly caps_recorded: { readonly holder: string; readonly at: string; readonly item_usd?: number } | null;
}

/**
 * Puts the journal's money figures beside the ledger's: spend today and this week against every cap
 * the state folder recorded, from what the ledger counts (settled spend plus reservations in
 * flight, whichever drain made them) at `now`.
 */
export function moneyReport(metrics: MoneyMetrics, book: SpendBook | undefined, recorded: RecordedCaps | undefined, now: number): MoneyReport {
  // No ledger: no drain under a budget has reserved anything in this state folder yet.
  const counted = book ?? new SpendBook();
  return {
    now: new Date(now).toISOString(),
    ledger: { found: book !== undefined, windows: fleetWindows(counted, now), caps: capUsage(counted, recorded?.caps ?? [], now) },
    caps_recorded: recorded === undefined ? null : { holder: recorded.holder, at: new Date(recorded.at).toISOString(), ...(recorded.itemCap === undefined ? {} : { item_usd: fromMicros(recorded.itemCap) }) },
    ...metrics,
  };
}
