import type { BudgetCap } from "../../core/budget/budget-cap.js";
import type { CapRoom } from "../../core/budget/cap-room.js";
import { SpendBook } from "../../core/budget/spend-book.js";
import type { ReserveRequest, ReserveResult, SpendLedger } from "../../core/budget/spend-ledger.js";

/** The spend ledger in memory: one process, for tests, benches and dry runs. */
export class MemorySpendLedger implements SpendLedger {
  readonly book = new SpendBook();
  private next = 0;

  constructor(private readonly caps: readonly BudgetCap[]) {}

  async rooms(now: number): Promise<CapRoom[]> {
    return this.book.rooms(this.caps, now);
  }

  async reserve(request: ReserveRequest, now: number): Promise<ReserveResult> {
    const ticket = `${request.item}#${++this.next}`;
    const hold = this.book.reserveWithin(this.caps, { ticket, item: request.item, pool: request.pool, at: now, micros: request.micros });
    const rooms = this.book.rooms(this.caps, now);
    return hold === undefined ? { ok: true, ticket, rooms } : { ok: false, hold, rooms };
  }

  async settle(ticket: string, reported: number | undefined, now: number): Promise<CapRoom[]> {
    this.book.settle(ticket, reported);
    return this.book.rooms(this.caps, now);
  }

  async cancel(ticket: string, now: number): Promise<CapRoom[]> {
    this.book.cancel(ticket);
    return this.book.rooms(this.caps, now);
  }
}
