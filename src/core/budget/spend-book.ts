import type { BudgetCap } from "./budget-cap.js";
import { windowEnd, windowStart } from "./budget-cap.js";
import type { BudgetHold, CapRoom } from "./cap-room.js";
import { capExceeded } from "./cap-room.js";
import type { Cell } from "./spend-totals.js";
import { ScopeTotals } from "./spend-totals.js";

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

/** What runs of one pool spent in one UTC day, settled (their reservations in flight apart). */
export interface DaySpend {
  readonly pool: string;
  /** The day's start, midnight UTC (ms). */
  readonly day: number;
  readonly micros: number;
}

/**
 * A reservation in flight, with the four totals it counts in, so settling needs no lookup. Records
 * of settled runs are used again for the next reservations: a long drain makes no garbage here.
 */
interface Open {
  ticket: string;
  item: string;
  pool: string;
  at: number;
  micros: number;
  fleetDay: Cell;
  fleetWeek: Cell;
  poolDay: Cell;
  poolWeek: Cell;
}

/**
 * The spend ledger's arithmetic, kept apart from where it is stored: reservations in flight one by
 * one, and spend as running totals per window, fleet-wide and per pool. A settled run is only its
 * share of the totals, so the book grows with the runs in flight and the days a cap looks back,
 * never with the runs a drain has made; reserving, settling and asking what a cap has left are O(1)
 * and allocate nothing but the reservation itself. No IO, no clock.
 */
export class SpendBook {
  private readonly inFlight = new Map<string, Open>();
  /** Records of settled reservations, kept to be used again (at most as many as were ever in flight at once). */
  private readonly spare: Open[] = [];
  private readonly fleet = new ScopeTotals();
  private readonly pools = new Map<string, ScopeTotals>();
  /** The rooms last asked for (the caps, the day and week they were asked in), kept current. */
  private view: { caps: readonly BudgetCap[]; day: number; week: number; rooms: Array<{ cap: BudgetCap; used: number; resetsAt: number }> } | undefined;

  /** A book from stored reservations (a settled one counts as spend) and stored spend per day. */
  constructor(entries: Iterable<SpendEntry> = [], spent: Iterable<DaySpend> = []) {
    for (const e of entries) {
      const micros = wholeMicros(e.micros);
      if (e.settled) this.count(e.pool, e.at, micros);
      else this.open(e.ticket, e.item, e.pool, e.at, micros);
    }
    for (const s of spent) this.count(s.pool, s.day, wholeMicros(s.micros));
  }

  /** The reservations of runs in flight, for storing. */
  reservations(): SpendEntry[] {
    return [...this.inFlight.values()].map(({ ticket, item, pool, at, micros }) => ({ ticket, item, pool, at, micros, settled: false }));
  }

  /** Settled spend per pool and UTC day, for storing (days with none are left out). */
  spentByDay(): DaySpend[] {
    const reserved = new Map<string, number>();
    for (const o of this.inFlight.values()) {
      const key = `${o.pool}\n${windowStart(o.at, "day")}`;
      reserved.set(key, (reserved.get(key) ?? 0) + o.micros);
    }
    const out: DaySpend[] = [];
    for (const [pool, totals] of this.pools) {
      for (const [day, cell] of totals.eachDay()) {
        const micros = cell.used - (reserved.get(`${pool}\n${day}`) ?? 0);
        if (micros > 0) out.push({ pool, day, micros });
      }
    }
    return out;
  }

  /**
   * What each cap has used in its window holding `now`: spent plus reserved by runs in flight. The
   * rooms last asked for are kept current as the book changes, until rooms are asked for with other
   * caps or in another day or week: a ledger answers every change with the rooms, and making them
   * anew each time cost more than the change itself. A book nobody changes any more (the file
   * ledger's, read for one change) answers a snapshot; to keep a figure across changes, copy it.
   */
  rooms(caps: readonly BudgetCap[], now: number): readonly CapRoom[] {
    const day = windowStart(now, "day");
    const week = windowStart(now, "week");
    const view = this.view;
    if (view !== undefined && view.caps === caps && view.day === day && view.week === week) return view.rooms;
    const rooms = this.snapshot(caps, now);
    this.view = { caps, day, week, rooms };
    return rooms;
  }

  /** What runs in flight reserved in the cap's window holding `now` (the rest of `used` is spent). */
  reserved(cap: BudgetCap, now: number): number {
    const start = windowStart(now, cap.window);
    let sum = 0;
    for (const o of this.inFlight.values()) if ((cap.pool === undefined || cap.pool === o.pool) && windowStart(o.at, cap.window) === start) sum += o.micros;
    return sum;
  }

  /**
   * Reserves `entry.micros` at `entry.at` when it fits under every cap covering its pool; otherwise
   * changes nothing and returns the cap it does not fit under. The one rule the decision step uses
   * (`capExceeded`), applied again where the reservation is written, so a stale view never overspends.
   * A ticket already in flight is not reserved twice.
   */
  reserveWithin(caps: readonly BudgetCap[], entry: Omit<SpendEntry, "settled">): BudgetHold | undefined {
    if (this.inFlight.has(entry.ticket)) return undefined;
    const micros = wholeMicros(entry.micros);
    for (let i = 0; i < caps.length; i++) {
      const cap = caps[i] as BudgetCap;
      if ((cap.pool !== undefined && cap.pool !== entry.pool) || this.used(cap, entry.at) + micros <= cap.micros) continue;
      // Over one of them: the step's own rule says which, and what is left.
      return capExceeded(this.snapshot(caps, entry.at), entry.pool, micros);
    }
    this.open(entry.ticket, entry.item, entry.pool, entry.at, micros);
    return undefined;
  }

  /**
   * The run ended: what it reported replaces its reservation; `undefined` (it reported nothing)
   * keeps the reservation as spent. False when the ticket is not in flight (unknown, or settled
   * already: the first report stands), and nothing changes.
   */
  settle(ticket: string, reported: number | undefined): boolean {
    const o = this.inFlight.get(ticket);
    if (o === undefined) return false;
    if (reported !== undefined) this.move(o, wholeMicros(reported));
    this.inFlight.delete(ticket);
    this.spare.push(o);
    return true;
  }

  /** Nothing ran (the claim was denied, the item withdrawn): the reservation is given back whole. */
  cancel(ticket: string): boolean {
    const o = this.inFlight.get(ticket);
    if (o === undefined) return false;
    this.move(o, 0);
    this.inFlight.delete(ticket);
    this.spare.push(o);
    return true;
  }

  /** Forgets reservations made before `before` and windows that ended before it (past every cap's look). */
  prune(before: number): void {
    for (const o of this.inFlight.values()) {
      if (o.at >= before) continue;
      this.move(o, 0);
      this.inFlight.delete(o.ticket);
    }
    this.view = undefined;
    this.fleet.forget(before);
    for (const totals of this.pools.values()) totals.forget(before);
  }

  /** The rooms at `at`, as figures nobody keeps current. */
  private snapshot(caps: readonly BudgetCap[], at: number): Array<{ cap: BudgetCap; used: number; resetsAt: number }> {
    return caps.map((cap) => ({ cap, used: this.used(cap, at), resetsAt: windowEnd(at, cap.window) }));
  }

  private used(cap: BudgetCap, at: number): number {
    const totals = cap.pool === undefined ? this.fleet : this.pools.get(cap.pool);
    return totals === undefined ? 0 : totals.used(cap.window, at);
  }

  private scope(pool: string): ScopeTotals {
    let totals = this.pools.get(pool);
    if (totals === undefined) this.pools.set(pool, (totals = new ScopeTotals()));
    return totals;
  }

  private open(ticket: string, item: string, pool: string, at: number, micros: number): void {
    const own = this.scope(pool);
    const fleetDay = this.fleet.day(at);
    const fleetWeek = this.fleet.week(at);
    const poolDay = own.day(at);
    const poolWeek = own.week(at);
    let o = this.spare.pop();
    if (o === undefined) o = { ticket, item, pool, at, micros, fleetDay, fleetWeek, poolDay, poolWeek };
    else {
      o.ticket = ticket;
      o.item = item;
      o.pool = pool;
      o.at = at;
      o.micros = micros;
      o.fleetDay = fleetDay;
      o.fleetWeek = fleetWeek;
      o.poolDay = poolDay;
      o.poolWeek = poolWeek;
    }
    o.fleetDay.used += micros;
    o.fleetWeek.used += micros;
    o.poolDay.used += micros;
    o.poolWeek.used += micros;
    this.inFlight.set(ticket, o);
    this.keepViewed(pool, at, micros);
  }

  /** Settled spend: counted in its windows, with nothing left to settle. */
  private count(pool: string, at: number, micros: number): void {
    const own = this.scope(pool);
    this.fleet.day(at).used += micros;
    this.fleet.week(at).used += micros;
    own.day(at).used += micros;
    own.week(at).used += micros;
    this.keepViewed(pool, at, micros);
  }

  /** Sets a reservation's amount, moving every total it counts in by the difference. */
  private move(o: Open, micros: number): void {
    const delta = micros - o.micros;
    o.fleetDay.used += delta;
    o.fleetWeek.used += delta;
    o.poolDay.used += delta;
    o.poolWeek.used += delta;
    o.micros = micros;
    this.keepViewed(o.pool, o.at, delta);
  }

  /** Moves the rooms in view whose cap counts a change of `delta` reserved by `pool` at `at`. */
  private keepViewed(pool: string, at: number, delta: number): void {
    const view = this.view;
    if (view === undefined || delta === 0) return;
    for (const room of view.rooms) {
      const cap = room.cap;
      if (cap.pool !== undefined && cap.pool !== pool) continue;
      const start = cap.window === "day" ? view.day : view.week;
      if (at >= start && at < start + (cap.window === "day" ? DAY_MS : WEEK_MS)) room.used += delta;
    }
  }
}

const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;

/** Whole micro-dollars, never below 0: a fraction would drift the totals and could not be stored back. */
const wholeMicros = (micros: number): number => Math.max(0, Math.round(micros));
