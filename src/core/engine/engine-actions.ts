import type { ClaimStore } from "../claims/claim-store.js";
import type { ClaimToken } from "../claims/claim-token.js";
import type { UnstampedEvent } from "../journal/journal-emitter.js";
import { landEvent } from "../journal/land-event.js";
import { failed } from "../stop/stop.js";
import type { BudgetHold } from "../budget/cap-room.js";
import type { Clock } from "./clock.js";
import type { LandingDecision } from "./decision.js";
import type { StepOptions } from "./step-state.js";
import { decideGrant } from "./decide-held.js";
import { landingFor } from "./landing-for.js";
import type { EngineLoop, RunResult } from "./engine-loop.js";
import type { EngineOptions } from "./engine-options.js";
import type { EnginePurse } from "./engine-purse.js";
import type { Flight } from "./flight.js";
import { LOCAL_POOL } from "./flight.js";
import type { ItemBook } from "./item-book.js";
import type { WorkItem } from "./work-item.js";

/** What the engine's hands work with: the outside world's ports and the engine's own books. */
export interface EngineParts<P> {
  readonly loop: EngineLoop<P>;
  readonly claims: ClaimStore;
  readonly clock: Clock;
  readonly options: EngineOptions;
  /** The rules of the one decision step, as the engine's options set them. */
  readonly step: StepOptions;
  readonly book: ItemBook<P>;
  readonly purse: EnginePurse;
  readonly emit: (event: UnstampedEvent) => void;
}

/** A claim granted and ready to dispatch, with the reservation made for it (if any). */
export interface Grant {
  readonly token: ClaimToken;
  readonly reservation?: { readonly ticket: string; readonly micros: number };
}

/**
 * The engine's hands: what each decision of the step comes to in the claim store, the spend
 * ledger, the journal and the loop. They add no scheduling rule of their own: a fresh grant goes
 * through decideGrant and a withdrawn item through landingFor, the step's own rules.
 */
export class EngineActions<P> {
  constructor(readonly parts: EngineParts<P>) {}

  /** Reads the queue and files the items not seen before (their earlier costs count once). */
  async readQueue(): Promise<void> {
    const { loop, clock, book, purse } = this.parts;
    const items = await loop.selectQueue(clock.now());
    for (const item of items) if (book.get(item.id) === undefined) purse.observePast(item.id, item.claimKey);
    book.add(items);
  }

  /** Claims one item the step chose; the grant to dispatch, or undefined when it fell through. */
  async claim(item: WorkItem<P>, now: number, reserve?: number): Promise<Grant | undefined> {
    const { purse, book, options, claims, emit, step, loop } = this.parts;
    // Reserve first, atomically with every other drain on the ledger, then claim: a claim that
    // has to wait for money would spend an attempt for nothing.
    const reserved = await purse.reserve(item.id, LOCAL_POOL, reserve, now);
    if (reserved?.kind === "unknown") {
      // The ledger could not answer: never dispatch on an unknown budget; look again after a poll.
      book.backoff.set(item.id, now + options.pollMs);
      return undefined;
    }
    if (reserved?.kind === "held") {
      this.holdForBudget(item, reserved.hold);
      return undefined;
    }
    const ticket = reserved?.ticket;
    let claim;
    try {
      claim = await claims.claim(item.claimKey, options.holder, options.leaseMs, now);
    } catch {
      // The store could not answer: try the item again after a poll, never assume either way.
      await purse.giveBack(ticket);
      book.backoff.set(item.id, now + options.pollMs);
      return undefined;
    }
    if (!claim.granted) {
      await purse.giveBack(ticket);
      emit({ event: "DENY", item: item.id, holder: options.holder, reason: claim.reason, detail: claim.detail });
      await this.onDenied(item, claim.reason, claim.detail);
      return undefined;
    }
    const token = claim.token;
    emit({ event: "CLAIM", item: item.id, holder: token.holder, epoch: token.epoch });
    const next = decideGrant(item.id, token.epoch, step);
    // Leases that ran out count as attempts too: a worker that keeps dying goes to a human.
    if (next.kind === "settle-to-human") {
      await purse.giveBack(ticket);
      await this.settle(item, token, { stop: next.landing.stop }, next.landing);
      return undefined;
    }
    // The queue was read a while ago: an item withdrawn since is landed refused, never dispatched.
    const gone = await loop.withdrawn?.(item);
    if (gone !== undefined) {
      await purse.giveBack(ticket);
      const stop = failed("refuse", gone);
      await this.settle(item, token, { stop }, landingFor(stop, token.epoch, now, step));
      return undefined;
    }
    return ticket === undefined ? { token } : { token, reservation: { ticket, micros: reserve as number } };
  }

  /**
   * The best item does not fit under a cap: it stays queued (back in the ready queue), nothing is
   * claimed until the rooms change, and its hold is journalled once, naming the cap.
   */
  holdForBudget(item: WorkItem<P>, hold: BudgetHold): void {
    const { book, purse } = this.parts;
    book.ready.push(item);
    purse.paused = hold;
    purse.journalHold(item.id, hold);
  }

  /** A cap applies and the item has no cost to reserve: journalled, and final for this drain. */
  refuse(id: string, reason: string): void {
    this.parts.emit({ event: "HOLD", item: id, reason: "unpriced", detail: reason });
    this.parts.book.unpriced(id, reason);
  }

  /**
   * Extends a running flight's lease; a worker whose claim is lost is told to stop. Its next
   * renewal is due a third of a lease from now either way, which is when the engine wakes for it.
   */
  async renew(flight: Flight<P>, leaseMs: number, now: number): Promise<void> {
    flight.renewAt = now + this.parts.options.leaseMs / 3;
    let renewed;
    try {
      renewed = await this.parts.claims.renew(flight.token, leaseMs, now);
    } catch {
      return; // the next decision tries again; the lease still has two thirds to run
    }
    if (renewed.ok) flight.token = renewed.token;
    else flight.control.abort(new Error(`claim lost: ${renewed.detail}`));
  }

  /**
   * Lands a finished flight as the step decided. `revive`: the lease lapsed while the worker lived
   * (this drain was paused or starved past a renewal) and nobody took it, so it is renewed before
   * the land, as the GitHub tick revives one; a claim someone else took fails the renewal and the
   * land is refused, fenced.
   */
  async land(flight: Flight<P>, result: RunResult, landing: LandingDecision, revive: boolean, now: number): Promise<void> {
    const token = revive ? await this.revive(flight.token, now) : flight.token;
    await this.settle(flight.item, token, result, landing);
  }

  /** Renews a lapsed claim this engine still holds; the token unchanged when the store refuses (the land is then fenced). */
  private async revive(token: ClaimToken, now: number): Promise<ClaimToken> {
    try {
      const renewed = await this.parts.claims.renew(token, this.parts.options.leaseMs, now);
      return renewed.ok ? renewed.token : token;
    } catch {
      return token;
    }
  }

  /** Lands one outcome and releases its claim together; a stale epoch's land is refused and journalled. */
  async settle(item: WorkItem<P>, token: ClaimToken, result: RunResult, landing: LandingDecision): Promise<void> {
    const { clock, claims, emit, loop, book } = this.parts;
    const now = clock.now();
    const { disposition, note, mode } = landing;
    let fenced;
    try {
      fenced = await claims.release(token, mode, now);
    } catch (err) {
      fenced = { ok: false as const, reason: "lost" as const, detail: `claim store failed: ${err instanceof Error ? err.message : String(err)}` };
    }
    const land = landEvent(item.id, token.epoch, result, disposition);
    if (!fenced.ok) {
      emit({ ...land, fenced: `${fenced.reason}: ${fenced.detail}` });
      // Someone newer holds the item (or the store lost it): look again at the next poll.
      book.elsewhere.add(item.id);
      return;
    }
    emit(land);
    emit({ event: "RELEASE", item: item.id, epoch: token.epoch });
    try {
      await loop.land(token, item, note === undefined ? { result, disposition } : { result, disposition, note });
    } catch {
      // The claim store already holds the outcome; a front that failed to show it can catch up.
    }
    if (mode.kind === "retry") book.backoff.set(item.id, mode.notBefore);
    else book.settled(item.id, mode.outcome);
  }

  private async onDenied(item: WorkItem<P>, reason: string, detail: string): Promise<void> {
    const { book, clock } = this.parts;
    if (reason === "held") book.elsewhere.add(item.id);
    else if (reason === "not-ready") await this.recheck(item.id, clock.now());
    else book.denied(item.id, reason, detail);
  }

  /** Asks the store where an item stands and files it accordingly; returns when to look again. */
  async recheck(id: string, now: number): Promise<number | undefined> {
    const { book, claims } = this.parts;
    const item = book.get(id) as WorkItem<P>;
    return book.file(id, await claims.inspect(item.claimKey, now), now);
  }
}
