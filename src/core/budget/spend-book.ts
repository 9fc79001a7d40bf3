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

const WINDOWS: readonly BudgetWindow[] = ["day", "week"];
const FLEET = "*";

/**
 * The spend ledger's arithmetic, kept apart from where it is stored: reservations and spend per
 * window, fleet-wide and per pool, each total kept as it changes so that reserving, settling and
 * asking what a cap has left are O(1) whatever the number of entries. No IO, no clock.
 */
export class SpendBook {
  private readonly entries = new Map<string, SpendEntry>();
  private readonly totals = new Map<string, number>();

  constructor(entries: Iterable<SpendEntry> = []) {
    for (const e of entries) this.put(e);
  }

  /** Every entry, for storing. */
  list(): SpendEntry[] {
    return [...this.entries.values()];
  }

  get(ticket: string): SpendEntry | undefined {
    return this.entries.get(ticket);
  }

  /** What each cap has used in its window holding `now`. */
  rooms(caps: readonly BudgetCap[], now: number): CapRoom[] {
    return caps.map((cap) => ({ cap, used: this.totals.get(key(cap.pool ?? FLEET, cap.window, windowStart(now, cap.window))) ?? 0, resetsAt: windowEnd(now, cap.window) }));
  }

  /**
   * Reserves `entry.micros` at `entry.at` when it fits under every cap covering its pool; otherwise
   * changes nothing and returns the cap it does not fit under. The one rule the decision step uses
   * (`capExceeded`), applied again where the reservation is written, so a stale view never overspends.
   */
  reserveWithin(caps: readonly BudgetCap[], entry: Omit<SpendEntry, "settled">): BudgetHold | undefined {
    if (this.entries.has(entry.ticket)) return undefined;
    // Whole micro-dollars only: a fraction would drift totals and could not be stored back.
    entry = { ...entry, micros: Math.max(0, Math.round(entry.micros)) };
    const hold = capExceeded(this.rooms(caps, entry.at), entry.pool, entry.micros);
    if (hold === undefined) this.put({ ...entry, settled: false });
    return hold;
  }

  /**
   * The run ended: what it reported replaces its reservation; `undefined` (it reported nothing)
   * keeps the reservation as spent. Settling twice changes nothing. False for an unknown ticket.
   */
  settle(ticket: string, reported: number | undefined): boolean {
    const entry = this.entries.get(ticket);
    if (entry === undefined) return false;
    if (entry.settled) return true;
    this.remove(entry);
    this.put({ ...entry, micros: reported === undefined ? entry.micros : Math.max(0, Math.round(reported)), settled: true });
    return true;
  }

  /** Nothing ran (the claim was denied, the item withdrawn): the reservation is given back whole. */
  cancel(ticket: string): boolean {
    const entry = this.entries.get(ticket);
    if (entry === undefined || entry.settled) return false;
    this.remove(entry);
    return true;
  }

  /** Drops entries reserved before `before` (older than every window a cap can cover). */
  prune(before: number): void {
    for (const entry of [...this.entries.values()]) if (entry.at < before) this.remove(entry);
  }

  private put(entry: SpendEntry): void {
    this.entries.set(entry.ticket, entry);
    this.add(entry, entry.micros);
  }

  private remove(entry: SpendEntry): void {
    this.entries.delete(entry.ticket);
    this.add(entry, -entry.micros);
  }

  private add(entry: SpendEntry, micros: number): void {
    for (const window of WINDOWS) {
      const start = windowStart(entry.at, window);
      for (const scope of [FLEET, entry.pool]) {
        const k = key(scope, window, start);
        const total = (this.totals.get(k) ?? 0) + micros;
        if (total === 0) this.totals.delete(k);
        else this.totals.set(k, total);
      }
    }
  }
}

// A pool named `*` cannot exist (pool names are lower-case letters, digits, '-' and '_').
const key = (scope: string, window: BudgetWindow, start: number): string => `${scope}|${window}|${start}`;
