import type { ClaimStore } from "../claims/claim-store.js";
import type { Journal } from "../journal/journal-event.js";
import type { UnstampedEvent } from "../journal/journal-emitter.js";
import { journalEmitter } from "../journal/journal-emitter.js";
import { describeStop, failed } from "../stop/stop.js";
import type { Clock } from "./clock.js";
import type { LandingDecision } from "./decision.js";
import type { HeldClaim, ReadyItem, StepOptions, WorkerState } from "./step-state.js";
import { decideStep } from "./decide-step.js";
import type { EngineLoop, IdleSummary, RunResult } from "./engine-loop.js";
import type { EngineOptions } from "./engine-options.js";
import type { Flight } from "./flight.js";
import { endedWorker, heldClaim, LOCAL_POOL } from "./flight.js";
import { REORDER_EVERY_MS } from "../queue/ready-queue.js";
import { ClassDurations } from "./class-durations.js";
import { idleSummaryText } from "./idle-summary-text.js";
import { ItemBook } from "./item-book.js";
import { LazyAbort } from "./lazy-abort.js";
import type { WorkItem } from "./work-item.js";
import { fromMicros } from "../budget/budget-cap.js";
import { taskClassOf } from "../metrics/task-class.js";
import { EnginePurse, holdSummary } from "./engine-purse.js";
import type { Grant } from "./engine-actions.js";
import { EngineActions } from "./engine-actions.js";
import { lookAround } from "./look-around.js";

type Completion = { readonly id: string; readonly result: RunResult };

/** What one decision came to, for the run loop. */
interface Decided {
  /** The facts the step read no longer stand (a landing released items, a claim fell through, a stop came): decide again now. */
  readonly again: boolean;
  /** The step's verdict was idle or paused. */
  readonly quiet: boolean;
}

const LIVE: WorkerState = { kind: "live" };
const NOTHING: readonly ReadyItem[] = [];

/**
 * The scheduling engine: read the queue, hold a pool of N, claim before dispatch, land each
 * result and release its claim in one motion, refill, and stop only when the queue is empty AND
 * nothing is in flight anywhere the claim store can see. It never looks at an item's content.
 *
 * Each decision is one call of the step (`decideStep`) over everything the engine knows, as the
 * GitHub tick's plan calls it over a repository: its flights as held claims (finished ones with
 * their stop, running ones whose renewal is due or not), the ready queue as a lazy feed, what
 * waits elsewhere or in a backoff, what the budget holds back, and the caps' rooms. Every decision
 * it returns is acted on: land, renew, claim, hold, refuse, and the idle or paused verdict.
 */
export class Engine<P> {
  private readonly book: ItemBook<P>;
  private readonly purse: EnginePurse;
  private readonly emit: (event: UnstampedEvent) => void;
  /** The rules of the one decision step, as this engine's options set them. */
  private readonly step: StepOptions;
  private readonly act: EngineActions<P>;
  private readonly inflight = new Map<string, Flight<P>>();
  private readonly completions: Completion[] = [];
  /** Runs that finished, in the order they did, waiting for the next step to land them (their flights are still in `inflight`). */
  private readonly finished = new Map<string, RunResult>();
  private wake: (() => void) | undefined;
  private dispatched = 0;
  private stopping: string | undefined;
  /** Items the step read from the ready queue in this decision, by id. */
  private readonly taken = new Map<string, WorkItem<P>>();
  /** Run lengths seen so far, per task class: what a length-aware policy (`fair`) orders by. */
  private readonly durations = new ClassDurations();
  /** Whether the policy reads `durations`. */
  private readonly usesDurations: boolean;

  constructor(
    private readonly loop: EngineLoop<P>,
    claims: ClaimStore,
    private readonly clock: Clock,
    journal: Journal,
    private readonly options: EngineOptions,
  ) {
    this.usesDurations = options.policy.withEstimates !== undefined;
    this.book = new ItemBook(options.policy.withEstimates?.(this.durations) ?? options.policy, clock.now());
    this.emit = journalEmitter(journal, clock);
    this.step = { maxAttempts: options.maxAttempts, backoffMs: options.backoffMs, poolSize: () => options.pool, pools: [LOCAL_POOL] };
    this.purse = new EnginePurse(options.budget, clock, this.emit);
    this.act = new EngineActions({ loop, claims, clock, options, step: this.step, book: this.book, purse: this.purse, emit: this.emit });
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
    await this.act.readQueue();
    // Whether the world outside this engine was looked at since it last had work in flight: a
    // quiet verdict ends the drain only on facts that fresh.
    let looked = false;
    let wait = 0;
    for (;;) {
      const decided = await this.decide();
      if (this.stopping !== undefined && this.inflight.size === 0 && this.completions.length === 0) {
        return { holder: this.options.holder, items: new Map(this.book.final), dispatched: this.dispatched, interrupted: this.stopping };
      }
      if (decided.again || this.completions.length > 0) {
        looked = false;
        continue;
      }
      if (this.inflight.size > 0) {
        looked = false;
        await this.waitForWork();
        continue;
      }
      if (looked) {
        if (decided.quiet) break;
        if (wait > 0) await this.clock.sleep(wait);
      }
      wait = await lookAround(this.act);
      looked = true;
    }
    return this.idle();
  }

  /** One decision: the finished runs taken in, one step over the whole state, and each of its decisions acted on. */
  private async decide(): Promise<Decided> {
    await this.gather();
    const { book, purse } = this;
    const now = this.clock.now();
    // Finished runs first, in the order they finished (their landings are journalled so), then the running ones.
    const held: HeldClaim[] = [];
    for (const [id, result] of this.finished) held.push(heldClaim(this.inflight.get(id) as Flight<P>, this.options.leaseMs, endedWorker(result)));
    for (const flight of this.inflight.values()) if (!this.finished.has(flight.item.id)) held.push(heldClaim(flight, this.options.leaseMs, LIVE));
    this.taken.clear();
    const stopped = this.stopping !== undefined;
    const paused = purse.paused !== undefined;
    const budget = purse.facts();
    const decisions = decideStep(
      {
        now,
        held,
        // Stopping, nothing is claimed; paused by a cap, the ready items are held back unread.
        ready: stopped || paused ? NOTHING : this.readyFeed(now),
        waiting: book.elsewhere.size + book.backoff.size,
        heldByBudget: paused ? book.ready.size : 0,
        ...(budget === undefined ? {} : { budget }),
      },
      this.step,
    );
    // The held claims' decisions (listed first by the step): land what finished, renew what is due.
    const readyBefore = book.ready.size;
    for (const d of decisions) {
      if (d.kind === "land") await this.landFlight(d.id, d.landing, d.revive, now);
      else if (d.kind === "renew") await this.act.renew(this.inflight.get(d.id) as Flight<P>, d.leaseMs, now);
    }
    // Only a landing's release of the items that waited on it grows the ready queue here: the
    // step's claims were made without them (and a stop may have come meanwhile). What it read
    // goes back and the engine decides again, so released work is claimed as soon as it is ready.
    if (book.ready.size > readyBefore || (!stopped && this.stopping !== undefined)) {
      for (const item of this.taken.values()) book.ready.push(item);
      return { again: true, quiet: false };
    }
    let claims = 0;
    let started = 0;
    let quiet = false;
    for (const d of decisions) {
      if (d.kind === "claim") {
        claims++;
        const item = this.taken.get(d.id) as WorkItem<P>;
        const grant = await this.act.claim(item, now, d.reserve);
        if (grant === undefined) continue;
        this.start(item, grant, now);
        started++;
      } else if (d.kind === "hold") this.act.holdForBudget(this.taken.get(d.id) as WorkItem<P>, d.hold);
      else if (d.kind === "refuse") this.act.refuse(d.id, d.reason);
      else if (d.kind === "idle" || d.kind === "paused") quiet = true;
      // Nothing else comes back here: the drain's flights always show their worker (never
      // reclaimed or settled unseen), it reviews no pull requests, and a grant is dispatched as it is made.
    }
    // An item the step read without deciding on it (it looked whether anything was left) goes back.
    const decided = new Set(decisions.map((d) => ("id" in d ? d.id : "")));
    for (const [id, item] of this.taken) if (!decided.has(id)) book.ready.push(item);
    // A claim that fell through changed the facts (a denial, a backoff): decide again.
    return { again: started < claims, quiet };
  }

  /**
   * Takes in the runs that finished since the last step: their costs settle in the ledger and their
   * lengths teach the queue, facts the step then reads. Once stopped, a finished run is released for
   * another run at once instead: that is the stop's doing, not a scheduling decision.
   */
  private async gather(): Promise<void> {
    while (this.completions.length > 0) {
      const { id, result } = this.completions.shift() as Completion;
      const flight = this.inflight.get(id);
      if (flight === undefined || this.finished.has(id)) continue;
      await this.purse.settle(flight.item.claimKey, flight.ticket, result);
      const now = this.clock.now();
      if (this.stopping !== undefined) {
        this.inflight.delete(id);
        // Interrupted, not failed: the item goes back to the queue at once, with its evidence.
        const stop = failed("retry", `interrupted (${this.stopping}): released for another run`);
        await this.act.settle(flight.item, flight.token, { ...result, stop }, { stop, disposition: "retry", summary: describeStop(stop), mode: { kind: "retry", notBefore: now } });
        continue;
      }
      // A run that ended by itself tells how long its class takes; the queue takes the new means
      // on the live queue's re-order cadence.
      this.durations.observe(flight.item.claimKey, now - flight.startedAt);
      if (this.usesDurations && this.durations.publishDue(now, REORDER_EVERY_MS)) this.book.ready.reorder(now);
      this.finished.set(id, result);
    }
  }

  /** Lands a finished flight as the step decided. */
  private async landFlight(id: string, landing: LandingDecision, revive: boolean, now: number): Promise<void> {
    const flight = this.inflight.get(id) as Flight<P>;
    const result = this.finished.get(id) as RunResult;
    this.inflight.delete(id);
    this.finished.delete(id);
    await this.act.land(flight, result, landing, revive, now);
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

  /** Starts the worker of a granted claim. */
  private start(item: WorkItem<P>, grant: Grant, now: number): void {
    const { token, reservation } = grant;
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

