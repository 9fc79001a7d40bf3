import type { BudgetCap } from "../../core/budget/budget-cap.js";
import type { CapRoom } from "../../core/budget/cap-room.js";
import { SpendBook } from "../../core/budget/spend-book.js";
import type { ReserveRequest, ReserveResult, SpendLedger } from "../../core/budget/spend-ledger.js";

/**
 * The spend ledger in memory: one process, for tests, benches and dry runs. Each change is made
 * at once (the `…Now` methods, which the bench times); the port's methods only wrap their answers
 * in promises, as the file ledger's IO needs.
 */
export class MemorySpendLedger implements SpendLedger {
  readonly book = new SpendBook();
  private next = 0;

  constructor(private readonly caps: readonly BudgetCap[]) {}

  async rooms(now: number): Promise<readonly CapRoom[]> {
    return this.book.rooms(this.caps, now);
  }

  async reserve(request: ReserveRequest, now: number): Promise<ReserveResult> {
    return this.reserveNow(request, now);
  }

  async settle(ticket: string, reported: number | undefined, now: number): Promise<readonly CapRoom[]> {
    return this.settleNow(ticket, reported, now);
  }

  async cancel(ticket: string, now: number): Promise<readonly CapRoom[]> {
    this.book.cancel(ticket);
    return this.book.rooms(this.caps, now);
  }

  /** `reserve`, answered at once. */
  reserveNow(request: ReserveRequest, now: number): ReserveResult {
    const ticket = `${request.item}#${++this.next}`;
    const hold = this.book.reserveWithin(this.caps, { ticket, item: request.item, pool: request.pool, at: now, micros: request.micros });
    const rooms = this.book.rooms(this.caps, now);
    return hold === undefined ? { ok: true, ticket, rooms } : { ok: false, hold, rooms };
  }

  /** `settle`, answered at once. */
  settleNow(ticket: string, reported: number | undefined, now: number): readonly CapRoom[] {
    this.book.settle(ticket, reported);
    return this.book.rooms(this.caps, now);
  }
}
