import type { BudgetView, CapUse } from "../budget/budget-view.js";
import { capCovers, formatUsd, toMicros, windowEnd, windowStart } from "../budget/budget-cap.js";
import type { BudgetHold, CapRoom } from "../budget/cap-room.js";
import { capsFromConfig } from "../budget/caps-from-config.js";
import { ClassCosts } from "../budget/class-costs.js";
import { countedMicros, isReserved, outcomeOf } from "../budget/claim-spend.js";
import type { ClaimRecord } from "../claims/claim-record.js";
import type { BosunConfig } from "../config/bosun-config.js";
import type { StepBudget } from "../engine/step-state.js";
import { holdSummary } from "../engine/engine-purse.js";

/** A tick's money: the facts the one step decides by, and what the dashboard shows of them. */
export interface TickMoney {
  readonly step: StepBudget;
  /** Undefined when `budgets:` sets nothing and nothing was reserved this week. */
  readonly view?: BudgetView;
}

/**
 * What the caps of `budgets:` have used, read from the claim records the tick reads anyway (docs/
 * budgets.md, "On GitHub"): a window's use is the costs its runs reported, the reservations of runs
 * that reported none, and the reservations of runs in flight — on every replica, since the marks
 * are written in the grants' own batch commits. Also the p90 cost per task class (what an item with
 * no figure reserves) from the costs runs reported, and the spend by outcome for the dashboard.
 * Pure: no IO, the time is given.
 */
export function tickMoney(config: BosunConfig, records: Iterable<ClaimRecord | undefined>, now: number): TickMoney {
  const configured = capsFromConfig(config.budgets);
  const uses = configured.caps.map((cap) => ({ cap, start: windowStart(now, cap.window), spent: 0, reserved: 0 }));
  const costs = new ClassCosts();
  const dayStart = windowStart(now, "day");
  const weekStart = windowStart(now, "week");
  const today = { accepted: 0, failed: 0, open: 0 };
  const week = { accepted: 0, failed: 0, open: 0 };
  let marked = false;
  for (const r of records) {
    if (r === undefined) continue;
    let costed = false;
    for (const m of r.spend ?? []) {
      if (m.costMicros !== undefined) costs.observe(r.key, m.costMicros);
      if (m.epoch === r.epoch && m.costMicros !== undefined) costed = true;
      // A window holds what was reserved in it (a day starts within its week); a mark a skewed
      // clock dated a little ahead counts now.
      if (m.at < weekStart) continue;
      const micros = countedMicros(m);
      const reserved = isReserved(r, m);
      for (const u of uses) {
        if (m.at < u.start || !capCovers(u.cap, m.pool)) continue;
        if (reserved) u.reserved += micros;
        else u.spent += micros;
      }
      const outcome = outcomeOf(r, m);
      week[outcome] += micros;
      marked = true;
      if (m.at >= dayStart) today[outcome] += micros;
    }
    // A run that reserved nothing (no cap, no figure) still says, by its reported cost, what its class costs.
    const usd = r.landing?.cost?.usd;
    if (!costed && usd !== undefined && Number.isFinite(usd) && usd >= 0 && r.state !== "held") costs.observe(r.key, toMicros(usd));
  }
  const rooms: CapRoom[] = uses.map((u) => ({ cap: u.cap, used: u.spent + u.reserved, resetsAt: windowEnd(now, u.cap.window) }));
  const step: StepBudget = { rooms, itemCap: (pool) => configured.itemCap(pool), p90: (taskClass) => costs.p90(taskClass) };
  const b = config.budgets;
  const anySet = configured.caps.length > 0 || b.item_usd !== undefined || Object.values(b.pools).some((p) => p.item_usd !== undefined);
  if (!anySet && !marked) return { step };
  const caps: CapUse[] = uses.map((u) => ({ name: u.cap.name, window: u.cap.window, ...(u.cap.pool === undefined ? {} : { pool: u.cap.pool }), micros: u.cap.micros, spent: u.spent, reserved: u.reserved, resetsAt: windowEnd(now, u.cap.window) }));
  return { step, view: { caps, today, week } };
}

/**
 * Why queued items wait for money, as the dashboard says it: the first item a cap held names the
 * cap, what the item reserves, what is left and when it resets (`holdSummary`); items queued
 * behind it — held in turn, or not read at all past a fleet-wide hold — say whom they wait behind.
 */
export function budgetReasons(queue: ReadonlyArray<{ readonly pool: string; readonly items: ReadonlyArray<{ readonly n: number }> }>, holds: ReadonlyMap<number, BudgetHold>, claimed: ReadonlySet<number>): Map<number, string> {
  const reasons = new Map<number, string>();
  const first = new Map<string, number>();
  let fleet: { readonly n: number; readonly hold: BudgetHold } | undefined;
  for (const [n, hold] of holds) {
    if (!first.has(hold.cap)) {
      first.set(hold.cap, n);
      reasons.set(n, holdSummary(hold));
      if (hold.pool === undefined) fleet ??= { n, hold };
    } else reasons.set(n, behind(first.get(hold.cap) ?? n, hold));
  }
  if (fleet === undefined) return reasons;
  for (const q of queue) for (const i of q.items) if (!reasons.has(i.n) && !claimed.has(i.n)) reasons.set(i.n, behind(fleet.n, fleet.hold));
  return reasons;
}

const behind = (n: number, hold: BudgetHold): string => `held by budget, behind #${n}: ${hold.cap} has ${formatUsd(hold.left)} left of its ${hold.window === "day" ? "UTC day" : "week"}; resets ${new Date(hold.resetsAt).toISOString()}`;
