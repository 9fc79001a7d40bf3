import type { BudgetHold, CapRoom } from "./cap-room.js";

/** A reservation to write: who it is for and how much (micro-dollars). */
export interface ReserveRequest {
  readonly item: string;
  readonly pool: string;
  readonly micros: number;
}

export type ReserveResult =
  | { readonly ok: true; readonly ticket: string; readonly rooms: readonly CapRoom[] }
  | { readonly ok: false; readonly hold: BudgetHold; readonly rooms: readonly CapRoom[] };

/**
 * Where spend and reservations live, shared by everyone who dispatches against the same caps
 * (locally: every drain over one state folder). The decision step chooses what to reserve from
 * the rooms it was shown; `reserve` applies the same rule again atomically with the other
 * dispatchers, so two of them never both take the last room. Every answer carries the rooms now.
 */
export interface SpendLedger {
  /** What each cap has used in its current window. */
  rooms(now: number): Promise<readonly CapRoom[]>;
  /** Reserves when it fits under every cap (checked again here, atomically); otherwise the cap it does not fit. */
  reserve(request: ReserveRequest, now: number): Promise<ReserveResult>;
  /** The run ended: its reported cost (micro-dollars) replaces the reservation; undefined keeps the reservation as spent. */
  settle(ticket: string, reported: number | undefined, now: number): Promise<readonly CapRoom[]>;
  /** Nothing ran: the reservation is given back. */
  cancel(ticket: string, now: number): Promise<readonly CapRoom[]>;
}
