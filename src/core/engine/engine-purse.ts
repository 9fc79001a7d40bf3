import type { BudgetHold, CapRoom } from "../budget/cap-room.js";
import { ClassCosts } from "../budget/class-costs.js";
import { formatUsd, fromMicros, toMicros } from "../budget/budget-cap.js";
import type { UnstampedEvent } from "../journal/journal-emitter.js";
import type { Clock } from "./clock.js";
import type { StepBudget } from "./step-state.js";
import type { EngineBudget } from "./engine-options.js";
import type { RunResult } from "./engine-loop.js";

/** What a reservation came to: a ticket to settle, a hold naming the cap, or no answer from the ledger. */
export type Reserved = { readonly kind: "ticket"; readonly ticket: string } | { readonly kind: "held"; readonly hold: BudgetHold } | { readonly kind: "unknown" };

/**
 * The local engine's money (DESIGN.md, "Budgets"): what each cap has used as the ledger last said,
 * the costs runs reported per task class, whether the drain is paused by a cap, and the holds it
 * journalled. Without a budget every method is a no-op and the step sees no money facts.
 */
export class EnginePurse {
  /** What each money cap has used, as the ledger last said. */
  private rooms: readonly CapRoom[] = [];
  /** Reported costs per task class: what an item with no figure of its own reserves (p90). */
  private readonly costs = new ClassCosts();
  /** The money rules the step reads beside the rooms; undefined without a budget. */
  private readonly rules: Omit<StepBudget, "rooms"> | undefined;
  /** Items whose hold was journalled in this drain: once each. */
  private readonly journalled = new Set<string>();
  /**
   * Set while the best ready item does not fit under a cap: nothing is claimed until the rooms
   * change (a run lands, another drain settles, a window rolls over). Items stay in the queue.
   */
  paused: BudgetHold | undefined;

  constructor(
    private readonly budget: EngineBudget | undefined,
    private readonly clock: Clock,
    private readonly emit: (event: UnstampedEvent) => void,
  ) {
    this.rules = budget === undefined ? undefined : { itemCap: () => budget.itemCap, p90: (taskClass: string) => this.costs.p90(taskClass) };
  }

  /** Whether money is watched at all (items then tell the step their figure and task class). */
  get watched(): boolean {
    return this.rules !== undefined;
  }

  /** The step's money facts, or undefined without a budget. */
  facts(): StepBudget | undefined {
    return this.rules === undefined ? undefined : { ...this.rules, rooms: this.rooms };
  }

  /** Reads what the caps have used now (another drain settled, a window rolled over). */
  async refresh(now: number): Promise<void> {
    if (this.budget !== undefined) this.rooms = await this.budget.ledger.rooms(now);
  }

  /** Earlier runs' costs count for the p90 of their class once, when their item is first seen. */
  observePast(id: string, claimKey: string): void {
    for (const micros of this.budget?.pastCosts?.get(id) ?? []) this.costs.observe(claimKey, micros);
  }

  /** Reserves before a claim, atomically with every other drain on the ledger; no ledger or no figure: nothing to reserve. */
  async reserve(item: string, pool: string, micros: number | undefined, now: number): Promise<Reserved | undefined> {
    const ledger = this.budget?.ledger;
    if (micros === undefined || ledger === undefined) return undefined;
    let reserved;
    try {
      reserved = await ledger.reserve({ item, pool, micros }, now);
    } catch {
      return { kind: "unknown" };
    }
    this.rooms = reserved.rooms;
    return reserved.ok ? { kind: "ticket", ticket: reserved.ticket } : { kind: "held", hold: reserved.hold };
  }

  /** Gives a reservation back whole: nothing ran under it. */
  async giveBack(ticket: string | undefined): Promise<void> {
    const ledger = this.budget?.ledger;
    if (ticket === undefined || ledger === undefined) return;
    try {
      this.rooms = await ledger.cancel(ticket, this.clock.now());
    } catch {
      // Kept as spent: the ledger errs on the side of the cap.
    }
  }

  /** Settles a finished run's reservation with what it reported (none: the reservation stays spent). */
  async settle(claimKey: string, ticket: string | undefined, result: RunResult): Promise<void> {
    const usd = result.cost?.usd;
    const reported = usd === undefined || !Number.isFinite(usd) || usd < 0 ? undefined : toMicros(usd);
    if (reported !== undefined && this.rules !== undefined) this.costs.observe(claimKey, reported);
    const ledger = this.budget?.ledger;
    if (ticket !== undefined && ledger !== undefined) {
      try {
        this.rooms = await ledger.settle(ticket, reported, this.clock.now());
      } catch {
        // Not settled: its reservation keeps counting as spent, which errs on the side of the cap.
      }
    }
    // What a cap has left may have moved: the held item is looked at again.
    this.paused = undefined;
  }

  /** Journals an item's hold by a cap, once per drain. */
  journalHold(item: string, hold: BudgetHold): void {
    if (this.journalled.has(item)) return;
    this.journalled.add(item);
    this.emit(holdEvent(item, hold));
  }
}

/** What a hold says to people: the cap, what the item would reserve, what is left, and when it resets. */
export function holdSummary(hold: BudgetHold): string {
  return `held by budget: ${hold.cap} has ${formatUsd(hold.left)} left of its ${hold.window === "day" ? "UTC day" : "week"}, the item reserves ${formatUsd(hold.reserve)}; resets ${isoTime(hold.resetsAt)}`;
}

function holdEvent(item: string, hold: BudgetHold): UnstampedEvent {
  return { event: "HOLD", item, reason: "budget", detail: holdSummary(hold), cap: hold.cap, reserve_usd: fromMicros(hold.reserve), left_usd: fromMicros(hold.left), resets: isoTime(hold.resetsAt) };
}

/** A time as ISO 8601 (the value is given: no clock is read). */
const isoTime = (ms: number): string => new Date(ms).toISOString();
