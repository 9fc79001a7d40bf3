import type { BudgetHold, CapRoom } from "../budget/cap-room.js";
import { anyCapCovers, capExceeded } from "../budget/cap-room.js";
import { reservationFor } from "../budget/reservation-for.js";
import type { Decision } from "./decision.js";
import { decideHeld } from "./decide-held.js";
import { decideReview } from "./decide-review.js";
import type { ReadyItem, StepBudget, StepOptions, StepState } from "./step-state.js";

/**
 * The one decision step of the scheduler (DESIGN.md, "Fencing on GitHub", "One engine"): the local
 * drain's `Engine` and the GitHub reconcile tick both decide through it, so their rules cannot
 * drift. It reads plain facts and returns decisions; the face turns them into claim-store calls,
 * dispatches and labels. It performs no IO, reads no clock and keeps no state.
 */

// The step's facts, decisions and per-claim rules live in files of their own; callers have always
// imported them from here, and still may.
export type { GateFact, HeldClaim, ReadyItem, ReviewingItem, StepBudget, StepOptions, StepState, WorkerState } from "./step-state.js";
export type { Decision, LandingDecision } from "./decision.js";
export { landingFor } from "./landing-for.js";
export { decideGrant } from "./decide-held.js";

/**
 * One step: judge every held claim (land, renew, reclaim, settle to a human), dispatch what was
 * just granted (or send it to a human past its attempts), then claim ready items best first while
 * their pool has room — counted from the pools recorded in the claims — and say idle when the
 * queue is empty and nothing is in flight.
 */
export function decideStep(state: StepState, options: StepOptions): Decision[] {
  const { now } = state;
  const decisions: Decision[] = [];
  const inFlight = new Map<string, number>(state.busy);
  const add = (pool: string, n: number): void => {
    inFlight.set(pool, (inFlight.get(pool) ?? 0) + n);
  };
  // Items this step sends back to the queue (a retry, a reclaim): not idle while they wait.
  let requeued = 0;
  for (const claim of state.held) {
    const decision = decideHeld(claim, now, options);
    if (decision !== undefined) decisions.push(decision);
    // Still in flight after this step unless it ends now (a retry landing frees the slot too).
    const ends = decision !== undefined && decision.kind !== "renew";
    if (!ends) add(claim.pool, 1);
    if (decision?.kind === "reclaim" || (decision?.kind === "land" && decision.landing.mode.kind === "retry")) requeued++;
  }
  let reviewing = 0;
  for (const item of state.reviewing ?? []) {
    const decision = decideReview(item, now, options);
    if (decision !== undefined) decisions.push(decision);
    // Still in review (or merged, waiting) after this step, or back in the queue: not idle.
    if (decision === undefined || (decision.kind === "advance" && (decision.to === "merged" || decision.landing.mode.kind === "retry"))) reviewing++;
  }
  const full = new Set<string>();
  let readyLeft = false;
  // Pools whose best item did not fit under a cap: nothing behind it jumps the queue (a cheap item
  // would otherwise spend what the better one waits for). A fleet cap holds every pool.
  const budgetHeld = new Set<string>();
  let fleetHeld = false;
  let firstHold: BudgetHold | undefined;
  let heldNow = 0;
  const money = state.budget;
  // What this step's own claims reserve, per cap, beyond what each cap had used.
  const reserved = money === undefined ? undefined : money.rooms.map(() => 0);
  const stopped = (pool: string): boolean => full.has(pool) || fleetHeld || budgetHeld.has(pool);
  const allFull = (): boolean => fleetHeld || (options.pools !== undefined && options.pools.length > 0 && options.pools.every((p) => full.has(p) || budgetHeld.has(p)));
  for (const pool of options.pools ?? []) if (options.poolSize(pool) - (inFlight.get(pool) ?? 0) <= 0) full.add(pool);
  const iterator = state.ready[Symbol.iterator]();
  // Fullness is checked before the next item is read: a lazy feed gives up only what is claimed.
  while (!allFull()) {
    const next = iterator.next();
    if (next.done === true) break;
    const item = next.value;
    const free = options.poolSize(item.pool) - (inFlight.get(item.pool) ?? 0);
    if (free <= 0 || stopped(item.pool)) {
      if (free <= 0) full.add(item.pool);
      if (budgetHeld.has(item.pool) && firstHold !== undefined) {
        decisions.push({ kind: "hold", id: item.id, pool: item.pool, hold: firstHold });
        heldNow++;
      } else readyLeft = true;
      continue;
    }
    const priced = money === undefined ? undefined : price(item, money);
    if (priced !== undefined && priced.ok === false) {
      decisions.push({ kind: "refuse", id: item.id, pool: item.pool, reason: priced.reason });
      continue;
    }
    const reserve = priced?.micros;
    if (money !== undefined && reserve !== undefined && reserved !== undefined) {
      const hold = capExceeded(money.rooms, item.pool, reserve, reserved);
      if (hold !== undefined) {
        decisions.push({ kind: "hold", id: item.id, pool: item.pool, hold });
        heldNow++;
        firstHold ??= hold;
        if (hold.pool === undefined) fleetHeld = true;
        else budgetHeld.add(hold.pool);
        continue;
      }
      for (let i = 0; i < money.rooms.length; i++) {
        const cap = (money.rooms[i] as CapRoom).cap;
        if (cap.pool === undefined || cap.pool === item.pool) reserved[i] = (reserved[i] as number) + reserve;
      }
    }
    decisions.push(reserve === undefined ? { kind: "claim", id: item.id, pool: item.pool } : { kind: "claim", id: item.id, pool: item.pool, reserve });
    add(item.pool, 1);
    if (free === 1) full.add(item.pool);
  }
  // `inFlight` already counts this step's claims.
  let flying = 0;
  for (const n of inFlight.values()) flying += n;
  // Every pool full with nothing in flight means pools of size 0: whether anything waits for them
  // decides idle. (Reading one more item is harmless then: no pool could take it.)
  // Not after a budget hold: what is left is held for money, and a lazy feed gives up nothing more.
  if (!readyLeft && flying === 0 && allFull() && heldNow === 0) readyLeft = iterator.next().done !== true;
  const quiet = flying === 0 && !readyLeft && requeued === 0 && reviewing === 0 && (state.waiting ?? 0) === 0;
  const held = heldNow + (state.heldByBudget ?? 0);
  if (quiet && held === 0) decisions.push({ kind: "idle" });
  else if (quiet) decisions.push(firstHold === undefined ? { kind: "paused" } : { kind: "paused", hold: firstHold });
  return decisions;
}

/**
 * What an item reserves where money is watched: nothing to decide (undefined) when no cap covers
 * its pool and it names no figure; otherwise the reservation rule's answer (reservationFor).
 */
function price(item: ReadyItem, money: StepBudget): { ok: true; micros: number } | { ok: false; reason: string } | undefined {
  // Asked for every ready item a step looks at: one input object, nothing spread.
  const r = reservationFor({ brief: item.usd, itemCap: money.itemCap?.(item.pool), p90: item.taskClass === undefined ? undefined : money.p90?.(item.taskClass), taskClass: item.taskClass });
  if (r.ok) return r;
  return anyCapCovers(money.rooms, item.pool) ? r : undefined;
}
