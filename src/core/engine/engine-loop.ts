import type { ClaimToken } from "../claims/claim-token.js";
import type { Evidence } from "../journal/journal-event.js";
import type { RunCost } from "../journal/run-cost.js";
import type { Disposition, Stop } from "../stop/stop.js";
import type { WorkerControl } from "./lazy-abort.js";
import type { WorkItem } from "./work-item.js";

/** What a worker's run produced: its typed stop and, where it has them, structured evidence. */
export interface RunResult {
  readonly stop: Stop;
  readonly evidence?: Evidence;
  /** What the run cost, as the worker reported it plus the wall clock Bosun measured (journalled on LAND). */
  readonly cost?: RunCost;
}

/** What the engine decided about a run, handed to `land`. */
export interface Landing {
  readonly result: RunResult;
  readonly disposition: Disposition;
  /** Why the engine chose this disposition when it differs from the stop's own (e.g. attempts exhausted). */
  readonly note?: string;
}

/** Where an item ended up when the drain went idle. */
export type FinalStatus =
  | { readonly status: "ok"; readonly summary: string }
  | { readonly status: "refused" | "needs-human"; readonly summary: string }
  | { readonly status: "blocked"; readonly summary: string }
  | { readonly status: "denied"; readonly summary: string }
  /** Still queued when the drain ended: it did not fit under a money cap (DESIGN.md, "Budgets"). */
  | { readonly status: "held"; readonly summary: string };

/** The run's share of the money caps: what it reserved, handed to agents that can enforce a cap themselves. */
export interface RunShare {
  /** US dollars. */
  readonly usd: number;
}

export interface IdleSummary {
  readonly holder: string;
  readonly items: ReadonlyMap<string, FinalStatus>;
  readonly dispatched: number;
  /** Set when the run was stopped before idle: why. Nothing was in flight here when it returned. */
  readonly interrupted?: string;
}

/**
 * The loop contract (six methods and one optional check): everything a scheduler front (local folder, GitHub) supplies.
 * The engine owns the facts (claims, slots, attempts, idle); the loop owns the outside world.
 */
export interface EngineLoop<P = unknown> {
  readonly name: string;
  /** Reads the queue: the items to schedule (settled ones may be included; the claim store knows). */
  selectQueue(now: number): Promise<readonly WorkItem<P>[]>;
  /** The model tier for this attempt (a routing hint for the worker). */
  tierPolicy(item: WorkItem<P>, attempt: number): string;
  /**
   * Optional: why a claimed item has left the queue since it was read (its brief file deleted), or
   * undefined when it is still there. A withdrawn item is landed refused and never dispatched.
   */
  withdrawn?(item: WorkItem<P>): Promise<string | undefined>;
  /** Starts the worker; only a claim token opens this door. `control.signal` aborts when the claim is lost. */
  dispatch(claim: ClaimToken, item: WorkItem<P>, tier: string, control: WorkerControl, share?: RunShare): Promise<RunResult>;
  /** Records a landed outcome where its users look (files, labels, comments). Called after the claim store accepted it. */
  land(claim: ClaimToken, item: WorkItem<P>, landing: Landing): Promise<void>;
  /** Called once, when the queue is empty and nothing is in flight anywhere. */
  onIdle(summary: IdleSummary): Promise<void> | void;
}
