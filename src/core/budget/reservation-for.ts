import { formatUsd } from "./budget-cap.js";

/** What an item could reserve from, in micro-dollars, as each face knows it. */
export interface ReservationInput {
  /** The brief's own money cap, `budget.usd`. */
  readonly brief?: number | undefined;
  /** Its pool's per-item cap (`budgets.pools.<p>.item_usd`, else `budgets.item_usd`; locally `--item-usd`). */
  readonly itemCap?: number | undefined;
  /** The 90th percentile of what runs of its task class reported costing, when any did. */
  readonly p90?: number | undefined;
  /** Its task class, to name in the reason when nothing gives a figure. */
  readonly taskClass?: string | undefined;
}

export type Reservation =
  | { readonly ok: true; readonly micros: number; readonly source: "brief" | "item-cap" | "p90" }
  | { readonly ok: false; readonly reason: string };

/**
 * How much an item reserves before it is dispatched (DESIGN.md, "Budgets"): its brief's
 * `budget.usd`, else its pool's per-item cap, else the observed 90th percentile cost of its task
 * class, else nothing — and an item with nothing to reserve is refused wherever a cap applies,
 * with the reason saying what would give it a figure. A figure of 0 is a figure: a free run.
 * @example reservationFor({ itemCap: 2_000_000, p90: 500_000 }) // {ok: true, micros: 2_000_000, source: "item-cap"}
 */
export function reservationFor(input: ReservationInput): Reservation {
  if (input.brief !== undefined) return { ok: true, micros: input.brief, source: "brief" };
  if (input.itemCap !== undefined) return { ok: true, micros: input.itemCap, source: "item-cap" };
  if (input.p90 !== undefined) return { ok: true, micros: input.p90, source: "p90" };
  const cls = input.taskClass === undefined ? "its task class" : `task class '${input.taskClass}'`;
  return { ok: false, reason: `no cost to reserve: the brief sets no budget.usd, its pool no per-item cap, and no run of ${cls} has reported a cost yet` };
}

/** The reservation as people read it: `$0.50 (budget.usd)`. */
export function describeReservation(micros: number, source: "brief" | "item-cap" | "p90"): string {
  const from = source === "brief" ? "budget.usd" : source === "item-cap" ? "per-item cap" : "p90 of its task class";
  return `${formatUsd(micros)} (${from})`;
}
