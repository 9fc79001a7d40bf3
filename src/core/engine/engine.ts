import type { ClaimStore } from "../claims/claim-store.js";
import type { ClaimToken } from "../claims/claim-token.js";
import type { Journal } from "../journal/journal-event.js";
import type { UnstampedEvent } from "../journal/journal-emitter.js";
import { journalEmitter } from "../journal/journal-emitter.js";
import { landEvent } from "../journal/land-event.js";
import { describeStop, failed } from "../stop/stop.js";
import type { Clock } from "./clock.js";
import type { HeldClaim, LandingDecision, ReadyItem, StepOptions } from "./decide-step.js";
import { decideGrant, decideHeld, decideStep, landingFor } from "./decide-step.js";
import type { EngineLoop, IdleSummary, RunResult } from "./engine-loop.js";
import type { EngineOptions } from "./engine-options.js";
import type { Flight } from "./flight.js";
import { heldClaim, LOCAL_POOL } from "./flight.js";
import { REORDER_EVERY_MS } from "../queue/ready-queue.js";
import { ClassDurations } from "./class-durations.js";
import { idleSummaryText } from "./idle-summary-text.js";
import { ItemBook } from "./item-book.js";
import { LazyAbort } from "./lazy-abort.js";
import { renewDue } from "./renew-due.js";
import type { WorkItem } from "./work-item.js";
import type { BudgetHold } from "../budget/cap-room.js";
import { fromMicros } from "../budget/budget-cap.js";
import { taskClassOf } from "../metrics/task-class.js";
import { EnginePurse, holdSummary } from "./engine-purse.js";

type Completion = { readonly id: string; readonly result: RunResult };

const NONE: readonly HeldClaim[] = [];

/**
 * The scheduling engine: read the queue, hold a pool of N, claim before dispatch, land each
 * result and release its claim in one motion, refill, and stop only when the queue is empty AND
 * nothing is in flight anywhere the claim store can see. It never looks at an item's content.
 */
export class Engine<P> {
  private readonly book: ItemBook<P>;
  private readonly inflight = new Map<string, Flight<P>>();
  private readonly completions: Completion[] = [];
  private wake: (() => void) | undefined;
  private dispatched = 0;
  private stopping: string | undefined;
  private readonly emit: (event: UnstampedEvent) => void;
  /** The rules of the one decision step, as this engine's options set them. */
  private readonly step: StepOptions;
  private readonly busy = new Map<string, number>();
  /** Items the step read from the ready queue in this fill, by id. */
  private readonly taken = new Map<string, WorkItem<P>>();
  /** Run lengths seen so far, per task class: what a length-aware policy (`fair`) orders by. */
  private readonly durations = new ClassDurations();
  /** Whether the policy reads `durations`. */
  private readonly usesDurations: boolean;
  /** Money: the caps' rooms, reported costs, the budget pause (engine-purse.ts). */
  private readonly purse: EnginePurse;

  constructor(
    private readonly loop: EngineLoop<P>,
    private readonly claims: ClaimStore,
    private readonly clock: Clock,
    journal: Journal,
    private readonly options: EngineOptions,
  ) {
    this.usesDurations = options.policy.withEstimates !== undefined;
    this.book = new ItemBook(options.policy.withEstimates?.(this.durations) ?? options.policy, clock.now());
    this.emit = journalEmitter(journal, clock);
    this.step = { maxAttempts: options.maxAttempts, backoffMs: options.backoffMs, poolSize: () => options.pool, pools: [LOCAL_POOL] };
    this.purse = new EnginePurse(options.budget, clock, this.emit);
  }

  /**
   * Stops taking work and tells every running worker to stop; their items are released for
   * another run as they come back, and run() returns once nothing is in flight (not idle).
   */
  stop(reason: string): void {
    if (this.stopping !== undefined) return;
    this.stopping = reason;
    for (const flight of this.inflight.values()) flight.control.abort(new Error(reason));
    this.wake?.();
  }

  /** Runs until idle (or stopped) and returns where every item ended up. */
  async run(): Promise<IdleSummary> {
    await this.purse.refresh(this.clock.now());
    await this.readQueue();
    for (;;) {
      await this.fill();
      if (this.stopping !== undefined && this.inflight.size === 0 && this.completions.length === 0) {
        return { holder: this.options.holder, items: new Map(this.book.final), dispatched: this.dispatched, interrupted: this.stopping };
      }
      if (this.completions.length > 0) {
        await this.landCompletions();
        continue;
      }
      if (this.inflight.size > 0) {
        await this.waitForWork();
        await renewDue(this.inflight, this.claims, this.step, this.options.leaseMs, this.clock.now());
        continue;
      }
      // Nothing in flight here: look at the world before calling it idle.
      const wait = await this.lookAround();
      if (this.inflight.size > 0 || (this.book.ready.size > 0 && this.purse.paused === undefined)) continue;
      if (wait === undefined) break;
      await this.clock.sleep(wait);
    }
    return this.idle();
  }

  private async readQueue(): Promise<void> {
    const items = await this.loop.selectQueue(this.clock.now());
    for (const item of items) if (this.book.get(item.id) === undefined) this.purse.observePast(item.id, item.claimKey);
    this.book.add(items);
  }

  /** Claims and dispatches ready items until the pool is full or nothing is ready: the step decides which. */
  private async fill(): Promise<void> {
    while (this.stopping === undefined && this.purse.paused === undefined) {
      const now = this.clock.now();
      this.busy.set(LOCAL_POOL, this.inflight.size);
      this.taken.clear();
      const budget = this.purse.facts();
      const decisions = decideStep({ now, held: NONE, busy: this.busy, ready: this.readyFeed(now), ...(budget === undefined ? {} : { budget }) }, this.step);
      let claims = 0;
      let started = 0;
      for (const d of decisions) {
        if (d.kind === "hold") this.holdForBudget(this.taken.get(d.id) as WorkItem<P>, d.hold);
        if (d.kind === "refuse") {
          this.emit({ event: "HOLD", item: d.id, reason: "unpriced", detail: d.reason });
          this.book.unpriced(d.id, d.reason);
        }
        if (d.kind !== "claim") continue;
        claims++;
        if (await this.claimAndStart(this.taken.get(d.id) as WorkItem<P>, now, d.reserve)) started++;
      }
      // An item the step read without deciding on it (it looked whether anything was left) goes back.
      const decided = new Set(decisions.map((d) => ("id" in d ? d.id : "")));
      for (const [id, item] of this.taken) if (!decided.has(id)) this.book.ready.push(item);
      // The step stops reading only at a full pool or an empty queue: decide again only if a claim fell through.
      if (claims === 0 || started === claims) return;
    }
  }

  /** The ready queue as the step reads it: each item is popped only when the step asks for it. */
  private *readyFeed(now: number): Generator<ReadyItem> {
    for (;;) {
      const item = this.book.ready.pop(now);
      if (item === undefined) return;
      this.taken.set(item.id, item);
      if (!this.purse.watched) yield { id: item.id, pool: LOCAL_POOL };
      else if (item.usd === undefined) yield { id: item.id, pool: LOCAL_POOL, taskClass: taskClassOf({ claim_key: item.claimKey }) };
      else yield { id: item.id, pool: LOCAL_POOL, taskClass: taskClassOf({ claim_key: item.claimKey }), usd: item.usd };
    }
  }

  /** Claims one item the step chose and starts its worker; true when it is in flight. */
  private async claimAndStart(item: WorkItem<P>, now: number, reserve?: number): Promise<boolean> {
    // Reserve first, atomically with every other drain on the ledger, then claim: a claim that
    // has to wait for money would spend an attempt for nothing.
    const reserved = await this.purse.reserve(item.id, LOCAL_POOL, reserve, now);
    if (reserved?.kind === "unknown") {
      // The ledger could not answer: never dispatch on an unknown budget; look again after a poll.
      this.book.backoff.set(item.id, now + this.options.pollMs);
      return false;
    }
    if (reserved?.kind === "held") {
      this.holdForBudget(item, reserved.hold);
      return false;
    }
    const ticket = reserved?.ticket;
    let claim;
    try {
      claim = await this.claims.claim(item.claimKey, this.options.holder, this.options.leaseMs, now);
    } catch {
      // The store could not answer: try the item again after a poll, never assume either way.
      await this.purse.giveBack(ticket);
      this.book.backoff.set(item.id, now + this.options.pollMs);
      return false;
    }
    if (!claim.granted) {
      await this.purse.giveBack(ticket);
      this.emit({ event: "DENY", item: item.id, holder: this.options.holder, reason: claim.reason, detail: claim.detail });
      await this.onDenied(item, claim.reason, claim.detail);
      return false;
    }
    const token = claim.token;
    this.emit({ event: "CLAIM", item: item.id, holder: token.holder, epoch: token.epoch });
    const next = decideGrant(item.id, token.epoch, this.step);
    // Leases that ran out count as attempts too: a worker that keeps dying goes to a human.
    if (next.kind === "settle-to-human") {
      await this.purse.giveBack(ticket);
      await this.settle(item, token, { stop: next.landing.stop }, next.landing);
      return false;
    }
    // The queue was read a while ago: an item withdrawn since is landed refused, never dispatched.
    const gone = await this.loop.withdrawn?.(item);
    if (gone !== undefined) {
      await this.purse.giveBack(ticket);
      const stop = failed("refuse", gone);
      await this.settle(item, token, { stop }, landingFor(stop, token.epoch, now, this.step));
      return false;
    }
    this.start(item, token, now, ticket === undefined ? undefined : { ticket, micros: reserve as number });
    return true;
  }

  /**
   * The best item does not fit under a cap: it stays queued (back in the ready queue), nothing is
   * claimed until the rooms change, and its hold is journalled once, naming the cap.
   */
  private holdForBudget(item: WorkItem<P>, hold: BudgetHold): void {
    this.book.ready.push(item);
    this.purse.paused = hold;
    this.purse.journalHold(item.id, hold);
  }

  private start(item: WorkItem<P>, token: ClaimToken, now: number, reservation?: { ticket: string; micros: number }): void {
    const tier = this.loop.tierPolicy(item, token.epoch);
    const share = reservation === undefined ? undefined : { usd: fromMicros(reservation.micros) };
    const agent = this.options.agent;
    this.emit({ event: "DISPATCH", item: item.id, epoch: token.epoch, attempt: token.epoch, tier, class: taskClassOf({ claim_key: item.claimKey }), ...(agent === undefined ? {} : { agent }), ...(share === undefined ? {} : { reserve_usd: share.usd }) });
    const control = new LazyAbort();
    this.inflight.set(item.id, { item, token, control, renewAt: now + this.options.leaseMs / 3, startedAt: now, ...(reservation === undefined ? {} : { ticket: reservation.ticket }) });
    this.dispatched++;
    const finish = (result: RunResult): void => {
      this.completions.push({ id: item.id, result });
      this.wake?.();
    };
    this.loop.dispatch(token, item, tier, control, share).then(finish, (err: unknown) => {
      // A dispatcher that throws has not told us what happened: that is cannot-classify, not retry.
      finish({ stop: failed("unclassified", `dispatch failed: ${err instanceof Error ? err.message : String(err)}`) });
    });
  }

  private async landCompletions(): Promise<void> {
    while (this.completions.length > 0) {
      const { id, result } = this.completions.shift() as Completion;
      const flight = this.inflight.get(id);
      if (flight === undefined) continue;
      this.inflight.delete(id);
      await this.purse.settle(flight.item.claimKey, flight.ticket, result);
      const now = this.clock.now();
      if (this.stopping !== undefined) {
        // Interrupted, not failed: the item goes back to the queue at once, with its evidence.
        const stop = failed("retry", `interrupted (${this.stopping}): released for another run`);
        await this.settle(flight.item, flight.token, { ...result, stop }, { stop, disposition: "retry", summary: describeStop(stop), mode: { kind: "retry", notBefore: now } });
        continue;
      }
      // A run that ended by itself tells how long its class takes; the queue takes the new means
      // on the live queue's re-order cadence.
      this.durations.observe(flight.item.claimKey, now - flight.startedAt);
      if (this.usesDurations && this.durations.publishDue(now, REORDER_EVERY_MS)) this.book.ready.reorder(now);
      const worker: HeldClaim["worker"] = result.evidence === undefined ? { kind: "ended", stop: result.stop } : { kind: "ended", stop: result.stop, evidence: result.evidence };
      const landing = decideHeld(heldClaim(flight, this.options.leaseMs, worker), now, this.step);
      if (landing?.kind !== "land") continue;
      // The lease lapsed while the worker lived (this drain was paused or starved past a renewal):
      // nobody took it, so it is renewed before the land, as the GitHub tick revives one. A
      // claim someone else took by then fails the renewal and the land is refused, fenced.
      const token = landing.revive ? await this.revive(flight.token, now) : flight.token;
      await this.settle(flight.item, token, result, landing.landing);
    }
  }

  /** Renews a lapsed claim this engine still holds; the token unchanged when the store refuses (the land is then fenced). */
  private async revive(token: ClaimToken, now: number): Promise<ClaimToken> {
    try {
      const renewed = await this.claims.renew(token, this.options.leaseMs, now);
      return renewed.ok ? renewed.token : token;
    } catch {
      return token;
    }
  }

  /** Lands one outcome and releases its claim together; a stale epoch's land is refused and journalled. */
  private async settle(item: WorkItem<P>, token: ClaimToken, result: RunResult, landing: LandingDecision): Promise<void> {
    const now = this.clock.now();
    const { disposition, note, mode } = landing;
    let fenced;
    try {
      fenced = await this.claims.release(token, mode, now);
    } catch (err) {
      fenced = { ok: false as const, reason: "lost" as const, detail: `claim store failed: ${err instanceof Error ? err.message : String(err)}` };
    }
    const land = landEvent(item.id, token.epoch, result, disposition);
    if (!fenced.ok) {
      this.emit({ ...land, fenced: `${fenced.reason}: ${fenced.detail}` });
      // Someone newer holds the item (or the store lost it): look again at the next poll.
      this.book.elsewhere.add(item.id);
      return;
    }
    this.emit(land);
    this.emit({ event: "RELEASE", item: item.id, epoch: token.epoch });
    try {
      await this.loop.land(token, item, note === undefined ? { result, disposition } : { result, disposition, note });
    } catch {
      // The claim store already holds the outcome; a front that failed to show it can catch up.
    }
    if (mode.kind === "retry") this.book.backoff.set(item.id, mode.notBefore);
    else this.book.settled(item.id, mode.outcome);
  }

  private async onDenied(item: WorkItem<P>, reason: string, detail: string): Promise<void> {
    if (reason === "held") this.book.elsewhere.add(item.id);
    else if (reason === "not-ready") await this.recheck(item.id, this.clock.now());
    else this.book.denied(item.id, reason, detail);
  }

  /** Asks the store where an item stands and files it accordingly; returns when to look again. */
  private async recheck(id: string, now: number): Promise<number | undefined> {
    const item = this.book.get(id) as WorkItem<P>;
    return this.book.file(id, await this.claims.inspect(item.claimKey, now), now);
  }

  /**
   * With nothing in flight here: reclaims expired leases, wakes items whose backoff ended, asks
   * about items held elsewhere and re-reads the queue. Returns how long to wait before looking
   * again, or undefined when there is nothing left to wait for (idle).
   */
  private async lookAround(): Promise<number | undefined> {
    let now = this.clock.now();
    for (const view of await this.claims.reclaimStale(now)) {
      this.emit({ event: "RECLAIM", item: this.book.idOfKey(view.key) ?? view.key, from: view.holder, epoch: view.epoch });
    }
    await this.readQueue();
    now = this.clock.now();
    let next = this.book.wakeBackoffs(now);
    for (const id of [...this.book.elsewhere]) {
      const at = await this.recheck(id, now);
      if (at !== undefined) next = Math.min(next, at);
    }
    if (this.book.ready.size > 0 && this.purse.paused !== undefined) {
      // Held by budget: look once more with what the ledger says now (another drain settled, a
      // window rolled over, new work arrived); the step holds the best item again or claims.
      await this.purse.refresh(now);
      this.purse.paused = undefined;
      await this.fill();
      if (this.inflight.size > 0 || this.completions.length > 0) return 0;
    }
    if (this.book.ready.size > 0 && this.purse.paused === undefined) return 0;
    // Idle is the step's verdict: nothing in flight here, nothing ready, nothing waited on; or
    // paused, when what is left waits only for money.
    const waiting = this.book.elsewhere.size + this.book.backoff.size;
    const heldByBudget = this.purse.paused === undefined ? 0 : this.book.ready.size;
    const verdict = decideStep({ now, held: NONE, ready: [], waiting, heldByBudget }, this.step);
    if (verdict.some((d) => d.kind === "idle" || d.kind === "paused")) return undefined;
    return Math.max(1, Math.min(this.options.pollMs, next - now));
  }

  private async waitForWork(): Promise<void> {
    // Workers that finish within a few microtask turns (stand-ins, dry runs) need no timer at all.
    for (let turn = 0; turn < 4 && this.completions.length === 0; turn++) await null;
    if (this.completions.length > 0) return;
    const now = this.clock.now();
    let renewAt = Infinity;
    for (const flight of this.inflight.values()) renewAt = Math.min(renewAt, flight.renewAt);
    const controller = new AbortController();
    const woken = new Promise<void>((resolve) => {
      this.wake = resolve;
    });
    await Promise.race([woken, this.clock.sleep(Math.max(0, renewAt - now), controller.signal)]);
    this.wake = undefined;
    controller.abort();
  }

  private async idle(): Promise<IdleSummary> {
    const hold = this.purse.paused;
    // Paused by the budget: what is still queued stays queued, each item held and journalled.
    if (hold !== undefined) for (const id of this.book.holdReady(this.clock.now(), holdSummary(hold))) this.purse.journalHold(id, hold);
    const items = this.book.close();
    const summary: IdleSummary = { holder: this.options.holder, items, dispatched: this.dispatched };
    this.emit({ event: "IDLE", holder: this.options.holder, summary: idleSummaryText(items) });
    await this.loop.onIdle(summary);
    return summary;
  }
}
