import type { ReleaseMode, SettledOutcome } from "../claims/claim-token.js";
import type { Evidence } from "../journal/journal-event.js";
import type { RunCost } from "../journal/run-cost.js";
import type { Disposition, Stop } from "../stop/stop.js";
import { describeStop } from "../stop/stop.js";
import { dispositionFor } from "../stop/disposition-for.js";
import type { BudgetHold, CapRoom } from "../budget/cap-room.js";
import { anyCapCovers, capExceeded } from "../budget/cap-room.js";
import { reservationFor } from "../budget/reservation-for.js";

/**
 * The one decision step of the scheduler (DESIGN.md, "Fencing on GitHub", "One engine"): the local
 * drain's `Engine` and the GitHub reconcile tick both decide through it, so their rules cannot
 * drift. It reads plain facts and returns decisions; the face turns them into claim-store calls,
 * dispatches and labels. It performs no IO, reads no clock and keeps no state.
 */

/** What a face can see of an in-flight item's worker. */
export type WorkerState =
  /** No sign of life: no run found, nothing open for it. A lapsed lease is taken back. */
  | { readonly kind: "unseen" }
  /** Its run is queued or in progress (or its pull request is open): it keeps its claim. */
  | { readonly kind: "live" }
  /** It finished with this stop: land it. `run`, `url`: the workflow run it finished in; `cost`: what it reported. */
  | { readonly kind: "ended"; readonly stop: Stop; readonly evidence?: Evidence; readonly run?: number; readonly url?: string; readonly cost?: RunCost };

/** A claim held on an item (by anyone), as the claim store recorded it. */
export interface HeldClaim {
  readonly id: string;
  readonly epoch: number;
  readonly holder: string;
  readonly leaseUntil: number;
  /** This claim's lease length: a renewal extends it by as much. */
  readonly leaseMs: number;
  /** The pool the grant counted against, recorded at grant (never the item's current labels). */
  readonly pool: string;
  readonly worker: WorkerState;
  /**
   * By when a grant must show its worker: an unseen worker past it is taken back at once, not at
   * lease end (its granter died between grant and dispatch). Undefined: only the lease counts.
   */
  readonly dispatchBy?: number;
}

/**
 * An item whose worker finished `done` and whose pull request now decides (GitHub only: the local
 * drain has no pull requests). What can be seen of it: the pull request's state and the gate's
 * verdict on its current head, as Bosun posted it.
 */
export interface ReviewingItem {
  readonly id: string;
  readonly epoch: number;
  /** Whether the item is already merged and only waits for its deployment to be verified. */
  readonly merged: boolean;
  readonly pull: { readonly number: number; readonly state: "open" | "merged" | "closed"; readonly mergeSha?: string };
  /** The gate's latest verdict on the pull request's head; undefined while none is posted. */
  readonly gate?: GateFact;
  /** Whether the repository verifies deployments before an item is done. */
  readonly verify: boolean;
}

/** The gate's verdict on a head, with the failure class it stands for (docs/lifecycle.md). */
export interface GateFact {
  readonly verdict: "pass" | "fail" | "could-not-check";
  /** For a fail: the acceptance command failed (retry), or the change is off-brief (refuse). */
  readonly failure?: "retry" | "refuse";
  /** The gate's own words: the failing paths, the cap, the command's exit. */
  readonly reason: string;
  readonly sha: string;
}

/** An item ready to claim: open, not blocked, not held, not claimed, eligible for its pool. */
export interface ReadyItem {
  readonly id: string;
  readonly pool: string;
  /** Its brief's own money cap, `budget.usd`, in micro-dollars. */
  readonly usd?: number;
  /** Its task class (the claim key's namespace): whose observed costs it reserves when it names none. */
  readonly taskClass?: string;
}

/** The money facts of a step (DESIGN.md, "Budgets"); without them no money rule applies. */
export interface StepBudget {
  /** The caps in force, each with what its window has used: spent, plus reserved by runs in flight. */
  readonly rooms: readonly CapRoom[];
  /** A pool's per-item cap (micro-dollars): what an item that names none reserves. */
  readonly itemCap?: (pool: string) => number | undefined;
  /** The observed 90th percentile cost of a task class (micro-dollars), when any run reported one. */
  readonly p90?: (taskClass: string) => number | undefined;
}

export interface StepState {
  readonly now: number;
  /** Claims to judge this step. */
  readonly held: readonly HeldClaim[];
  /** Work in flight that `held` does not list, per pool (already counted against its pool). */
  readonly busy?: ReadonlyMap<string, number>;
  /** Ready items, best first by the queue policy; read only as far as free slots reach. */
  readonly ready: Iterable<ReadyItem>;
  /** Items neither ready, nor final, nor in flight (a backoff, a claim elsewhere): not idle while any. */
  readonly waiting?: number;
  /** Items in review or merged and waiting for their deployment: not idle while any. */
  readonly reviewing?: readonly ReviewingItem[];
  /** Money caps and what they have left; absent: none apply. */
  readonly budget?: StepBudget;
  /**
   * Ready items the face holds back, unread, because a cap they did not fit under has not moved
   * since: not idle while any, but when nothing else is left the fleet is paused by its budget.
   */
  readonly heldByBudget?: number;
}

export interface StepOptions {
  /** Attempts (grants, reclaims included) before the item goes to a human. */
  readonly maxAttempts: number;
  /** Delay before attempt n+1 after a retryable failure of attempt n. */
  readonly backoffMs: (attempt: number) => number;
  readonly poolSize: (pool: string) => number;
  /** Every pool there is, when known: once all are full, the ready items are read no further (they may be a lazy feed). */
  readonly pools?: readonly string[];
}

/** What landing a stop means: its disposition, a summary, and how the claim ends. */
export interface LandingDecision {
  readonly stop: Stop;
  readonly disposition: Disposition;
  readonly summary: string;
  readonly mode: ReleaseMode;
  readonly note?: string;
  readonly evidence?: Evidence;
}

export type Decision =
  /** Land the outcome and end the claim in one motion; `revive`: the lease lapsed but the claim is still this epoch's, so it is renewed in the same compare-and-swap first. */
  | { readonly kind: "land"; readonly id: string; readonly epoch: number; readonly revive: boolean; readonly landing: LandingDecision }
  /** Extend the lease (`revive`: it lapsed while the worker lived; nobody took it). */
  | { readonly kind: "renew"; readonly id: string; readonly epoch: number; readonly leaseMs: number; readonly revive: boolean }
  /** Take back a lapsed claim whose worker shows no life: the item goes back to the queue (an attempt spent). */
  | { readonly kind: "reclaim"; readonly id: string; readonly epoch: number; readonly holder: string }
  /** Attempts are spent: end the claim as settled for a human (label `bosun:needs-human`). */
  | { readonly kind: "settle-to-human"; readonly id: string; readonly epoch: number; readonly landing: LandingDecision & { readonly mode: { readonly kind: "settle"; readonly outcome: SettledOutcome } } }
  /** Claim this ready item against its pool; `reserve`: the micro-dollars it reserves first, where money is capped or it names a figure. */
  | { readonly kind: "claim"; readonly id: string; readonly pool: string; readonly reserve?: number }
  /** Its pool has room but its reservation does not fit under a cap: it stays queued, held by budget. */
  | { readonly kind: "hold"; readonly id: string; readonly pool: string; readonly hold: BudgetHold }
  /** A cap applies and the item has no cost to reserve: not claimed, for the reason given. */
  | { readonly kind: "refuse"; readonly id: string; readonly pool: string; readonly reason: string }
  /** Nothing is in flight and what is left waits only for money: a cap's window to roll over or the cap to rise. */
  | { readonly kind: "paused"; readonly hold?: BudgetHold }
  /** Hand a granted claim to its worker. */
  | { readonly kind: "dispatch"; readonly id: string; readonly epoch: number }
  /** A reviewed item moves on: merged (waiting for its deployment), or its life ends or restarts as `landing` says. */
  | { readonly kind: "advance"; readonly id: string; readonly epoch: number; readonly to: "merged"; readonly mergeSha: string }
  | { readonly kind: "advance"; readonly id: string; readonly epoch: number; readonly to: "landed"; readonly landing: LandingDecision }
  /** The queue is empty and nothing is in flight: both facts checked. */
  | { readonly kind: "idle" };

/** Whether a third of a live lease has passed: leases renew from then on, not only in their last third. */
export function renewalDue(claim: Pick<HeldClaim, "leaseUntil" | "leaseMs">, now: number): boolean {
  return claim.leaseUntil - now <= (claim.leaseMs * 2) / 3;
}

/** The landing of a stop at an attempt: a retryable failure past the attempts goes to a human; one backoff for every face. */
export function landingFor(stop: Stop, epoch: number, now: number, options: Pick<StepOptions, "maxAttempts" | "backoffMs">, evidence?: Evidence): LandingDecision {
  const { disposition, note } = dispositionFor(stop, epoch, options.maxAttempts);
  const summary = note === undefined ? describeStop(stop) : `${describeStop(stop)} (${note})`;
  const mode: ReleaseMode = disposition === "retry" ? { kind: "retry", notBefore: now + options.backoffMs(epoch) } : { kind: "settle", outcome: { ok: disposition === "ok", disposition, summary } };
  // Built without spreads: the local drain lands one of these per item.
  const landing: { -readonly [K in keyof LandingDecision]: LandingDecision[K] } = { stop, disposition, summary, mode };
  if (note !== undefined) landing.note = note;
  if (evidence !== undefined) landing.evidence = evidence;
  return landing;
}

const exhausted = (id: string, epoch: number, maxAttempts: number, why: string): Decision => {
  const stop: Stop = { kind: "failed", failure: "unclassified", reason: `${why} (attempt ${epoch}, limit ${maxAttempts})` };
  const note = `attempts exhausted (${maxAttempts})`;
  const summary = `${describeStop(stop)} (${note})`;
  return { kind: "settle-to-human", id, epoch, landing: { stop, disposition: "human", summary, note, mode: { kind: "settle", outcome: { ok: false, disposition: "human", summary } } } };
};

/** The decision for one held claim, or undefined when it just keeps running. */
export function decideHeld(claim: HeldClaim, now: number, options: Pick<StepOptions, "maxAttempts" | "backoffMs">): Decision | undefined {
  const lapsed = claim.leaseUntil <= now;
  const { worker } = claim;
  if (worker.kind === "ended") {
    return { kind: "land", id: claim.id, epoch: claim.epoch, revive: lapsed, landing: landingFor(worker.stop, claim.epoch, now, options, worker.evidence) };
  }
  if (worker.kind === "live") {
    // A live worker keeps its claim: two live workers never hold one item.
    if (lapsed || renewalDue(claim, now)) return { kind: "renew", id: claim.id, epoch: claim.epoch, leaseMs: claim.leaseMs, revive: lapsed };
    return undefined;
  }
  // A grant whose worker never showed by its dispatch deadline: its granter died before
  // dispatching (a live one dispatches within seconds), so it is taken back now, not at lease end.
  const stranded = claim.dispatchBy !== undefined && claim.dispatchBy <= now;
  if (!lapsed && !stranded) return undefined;
  // A lapsed lease whose worker shows no life: that attempt is spent.
  if (claim.epoch >= options.maxAttempts) return exhausted(claim.id, claim.epoch, options.maxAttempts, `the lease ran out with no sign of the worker (held by ${claim.holder})`);
  return { kind: "reclaim", id: claim.id, epoch: claim.epoch, holder: claim.holder };
}

/**
 * What a reviewed item's pull request and gate say (docs/lifecycle.md): a merge ends it done (or
 * waits for the deployment where the repository verifies); a gate failure off the brief is refused
 * for a human with the gate's words, a failed acceptance command is retried at the next epoch,
 * could-not-check goes to a human; a pull request closed unmerged goes to a human. A pass, or no
 * verdict yet, waits (for separation and a merge, which are people's).
 */
export function decideReview(item: ReviewingItem, now: number, options: Pick<StepOptions, "maxAttempts" | "backoffMs">): Decision | undefined {
  const land = (stop: Stop): Decision => ({ kind: "advance", id: item.id, epoch: item.epoch, to: "landed", landing: landingFor(stop, item.epoch, now, options) });
  const { pull, gate } = item;
  if (pull.state === "merged") {
    const merge = pull.mergeSha ?? "";
    if (item.verify && !item.merged) return { kind: "advance", id: item.id, epoch: item.epoch, to: "merged", mergeSha: merge };
    // Merged, and verified where the repository verifies (the verify mode lands those): done.
    if (!item.verify) return land({ kind: "done", reason: `pull request #${pull.number} merged${merge === "" ? "" : ` as ${merge.slice(0, 12)}`}` });
    return undefined;
  }
  if (item.merged) return undefined;
  if (pull.state === "closed") return land({ kind: "blocked", reason: `pull request #${pull.number} was closed unmerged` });
  if (gate === undefined || gate.verdict === "pass") return undefined;
  if (gate.verdict === "could-not-check") return land({ kind: "failed", failure: "unclassified", reason: `the gate could not check pull request #${pull.number} at ${gate.sha.slice(0, 12)}: ${gate.reason}` });
  return land({ kind: "failed", failure: gate.failure ?? "refuse", reason: `the gate failed pull request #${pull.number} at ${gate.sha.slice(0, 12)}: ${gate.reason}` });
}

/** A claim just granted: dispatched, or — reclaims count as attempts — sent to a human once past them. */
export function decideGrant(id: string, epoch: number, options: Pick<StepOptions, "maxAttempts">): Decision {
  return epoch > options.maxAttempts ? exhausted(id, epoch, options.maxAttempts, "granted past the attempts") : { kind: "dispatch", id, epoch };
}

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
