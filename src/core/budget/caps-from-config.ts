import type { BudgetsConfig } from "../config/bosun-config.js";
import type { BudgetCap } from "./budget-cap.js";
import { toMicros } from "./budget-cap.js";

/** The caps and per-item figures a configuration's `budgets:` sets, as the decision step reads them. */
export interface ConfiguredBudgets {
  readonly caps: readonly BudgetCap[];
  /** A pool's per-item cap (micro-dollars): its own `item_usd`, else the fleet's default. */
  itemCap(pool: string): number | undefined;
}

/**
 * Reads `budgets:` into caps, each named by where it is written so a hold can say which one:
 * `budgets.fleet.day_usd`, `budgets.pools.fast.week_usd`.
 */
export function capsFromConfig(budgets: BudgetsConfig): ConfiguredBudgets {
  const caps: BudgetCap[] = [];
  const add = (name: string, window: "day" | "week", usd: number | undefined, pool?: string): void => {
    if (usd === undefined) return;
    const cap = { name, window, micros: toMicros(usd) };
    caps.push(pool === undefined ? cap : { ...cap, pool });
  };
  add("budgets.fleet.day_usd", "day", budgets.fleet.day_usd);
  add("budgets.fleet.week_usd", "week", budgets.fleet.week_usd);
  for (const [pool, b] of Object.entries(budgets.pools)) {
    add(`budgets.pools.${pool}.day_usd`, "day", b.day_usd, pool);
    add(`budgets.pools.${pool}.week_usd`, "week", b.week_usd, pool);
  }
  const fallback = budgets.item_usd === undefined ? undefined : toMicros(budgets.item_usd);
  return {
    caps,
    itemCap(pool) {
      const own = Object.hasOwn(budgets.pools, pool) ? budgets.pools[pool]?.item_usd : undefined;
      return own === undefined ? fallback : toMicros(own);
    },
  };
}
