import type { BudgetCap, BudgetWindow } from "./budget-cap.js";
import { windowEnd, windowStart } from "./budget-cap.js";
import type { BudgetHold, CapRoom } from "./cap-room.js";
import { capExceeded } from "./cap-room.js";

/** One run's money: reserved at dispatch, then what it reported (or the reservation, kept as spent). */
export interface SpendEntry {
  /** Unique per reservation: who reserved, for which item, which one. */
  readonly ticket: string;
  readonly item: string;
  readonly pool: string;
  /** When it was reserved (ms): the windows it counts in. */
  readonly at: number;
  /** Micro-dollars: the reservation while in flight, then the reported cost (or the reservation again). */
  readonly micros: number;
  /** Whether the run has ended; an entry in flight is a reservation. */
  readonly settled: boolean;
}

const FLEET = "*";

/** One running total: what a scope (the fleet, or a pool) used in one window. */
interface Cell {
  used: number;
}

/** An entry as the book keeps it: mutable, with the four totals it counts in, so settling needs no lookup. */
interface Kept {
  readonly ticket: string;
  readonly item: string;
  readonly pool: string;
  readonly at: number;
  micros: number;
  settled: boolean;
  readonly cells: readonly Cell[];
}

/**
 * The spend ledger's arithmetic, kept apart from where it is stored: reservations and spend per
 * window, fleet-wide and per pool, each total kept as it changes so that reserving, settling and
 * asking what a cap has left are O(1) whatever the number of entries. No IO, no clock.
 */
export class SpendBook {
  private readonly entries = new Map<string, Kept>();
  /** Totals per window kind, then per scope, then per window start (ms): numbers, never built strings. */
  private readonly totals: Record<BudgetWindow, Map<string, Map<number, Cell>>> = { day: new Map(), week: new Map() };

  constructor(entries: Iterable<SpendEntry> = []) {
    for (const e of entries) this.put(e.ticket, e.item, e.pool, e.at, e.micros, e.settled);
  }

  /** Every entry, for storing. */
  list(): SpendEntry[] {
    return [...this.entries.values()].map(({ ticket, item, pool, at, micros, settled }) => ({ ticket, item, pool, at, micros, settled }));
  }

  get(ticket: string): SpendEntry | undefined {
    const e = this.entries.get(ticket);
    return e === undefined ? undefined : { ticket: e.ticket, item: e.item, pool: e.pool, at: e.at, micros: e.micros, settled: e.settled };
  }

  /** What each cap has used in its window holding `now`. */
  rooms(caps: readonly BudgetCap[], now: number): CapRoom[] {
    return caps.map((cap) => ({ cap, used: this.used(cap, now), resetsAt: windowEnd(now, cap.window) }));
  }

  /**
   * Reserves `entry.micros` at `entry.at` when it fits under every cap covering its pool; otherwise
   * changes nothing and returns the cap it does not fit under. The one rule the decision step uses
   * (`capExceeded`), applied again where the reservation is written, so a stale view never overspends.
   */
  reserveWithin(caps: readonly BudgetCap[], entry: Omit<SpendEntry, "settled">): BudgetHold | undefined {
    if (this.entries.has(entry.ticket)) return undefined;
    // Whole micro-dollars only: a fraction would drift totals and could not be stored back.
    const micros = Math.max(0, Math.round(entry.micros));
    for (const cap of caps) {
      if ((cap.pool !== undefined && cap.pool !== entry.pool) || this.used(cap, entry.at) + micros <= cap.micros) continue;
      // Over one of them: the step's own rule says which, and what is left.
      return capExceeded(this.rooms(caps, entry.at), entry.pool, micros);
    }
    this.put(entry.ticket, entry.item, entry.pool, entry.at, micros, false);
    return undefined;
  }

  /**
   * The run ended: what it reported replaces its reservation; `undefined` (it reported nothing)
   * keeps the reservation as spent. Settling twice changes nothing. False for an unknown ticket.
   */
  settle(ticket: string, reported: number | undefined): boolean {
    const entry = this.entries.get(ticket);
    if (entry === undefined) return false;
    if (entry.settled) return true;
    entry.settled = true;
    if (reported !== undefined) this.move(entry, Math.max(0, Math.round(reported)));
    return true;
  }

  /** Nothing ran (the claim was denied, the item withdrawn): the reservation is given back whole. */
  cancel(ticket: string): boolean {
    const entry = this.entries.get(ticket);
    if (entry === undefined || entry.settled) return false;
    this.move(entry, 0);
    this.entries.delete(ticket);
    return true;
  }

  /** Drops entries reserved before `before` (older than every window a cap can cover). */
  prune(before: number): void {
    for (const entry of [...this.entries.values()]) {
      if (entry.at >= before) continue;
      this.move(entry, 0);
      this.entries.delete(entry.ticket);
    }
  }

  private used(cap: BudgetCap, now: number): number {
    return this.totals[cap.window].get(cap.pool ?? FLEET)?.get(windowStart(now, cap.window))?.used ?? 0;
  }

  private put(ticket: string, item: string, pool: string, at: number, micros: number, settled: boolean): void {
    const day = windowStart(at, "day");
    const week = windowStart(at, "week");
    const cells = [this.cell("day", FLEET, day), this.cell("day", pool, day), this.cell("week", FLEET, week), this.cell("week", pool, week)];
    for (const c of cells) c.used += micros;
    this.entries.set(ticket, { ticket, item, pool, at, micros, settled, cells });
  }

  /** Sets an entry's amount, moving every total it counts in by the difference. */
  private move(entry: Kept, micros: number): void {
    const delta = micros - entry.micros;
    for (const c of entry.cells) c.used += delta;
    entry.micros = micros;
  }

  private cell(window: BudgetWindow, scope: string, start: number): Cell {
    const byScope = this.totals[window];
    let byStart = byScope.get(scope);
    if (byStart === undefined) byScope.set(scope, (byStart = new Map()));
    let cell = byStart.get(start);
    if (cell === undefined) byStart.set(start, (cell = { used: 0 }));
    return cell;
  }
}
