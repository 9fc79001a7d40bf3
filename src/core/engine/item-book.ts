import type { KeyState } from "../claims/claim-store.js";
import type { SettledOutcome } from "../claims/claim-token.js";
import type { QueuePolicy } from "../queue/queue-policy-type.js";
import { ReadyQueue } from "../queue/ready-queue.js";
import { BlockerGraph } from "./blocker-graph.js";
import { blockerVerdict, type BlockerStatus } from "./blocker-rule.js";
import type { FinalStatus } from "./engine-loop.js";
import type { WorkItem } from "./work-item.js";

/**
 * Where every item the engine knows stands, apart from the ones in flight here: ready (in policy
 * order), waiting on blockers, held by another holder, waiting out a backoff, or final. Pure
 * bookkeeping: the engine asks the claim store and files the answers here.
 */
export class ItemBook<P> {
  private readonly items = new Map<string, WorkItem<P>>();
  readonly ready: ReadyQueue<WorkItem<P>>;
  private readonly blockers = new BlockerGraph();
  /** Items another holder has a live claim on: looked at again at each poll. */
  readonly elsewhere = new Set<string>();
  /** Items waiting out a retry backoff: id -> earliest next attempt. */
  readonly backoff = new Map<string, number>();
  readonly final = new Map<string, FinalStatus>();

  constructor(policy: QueuePolicy, now: number) {
    this.ready = new ReadyQueue(policy, now);
  }

  get(id: string): WorkItem<P> | undefined {
    return this.items.get(id);
  }

  /** The id of the item a claim key belongs to. */
  idOfKey(key: string): string | undefined {
    for (const item of this.items.values()) if (item.claimKey === key) return item.id;
    return undefined;
  }

  /** Files items not seen before: ready at once, or waiting on blockers that have not landed ok. */
  add(items: readonly WorkItem<P>[]): void {
    const fresh = items.filter((item) => !this.items.has(item.id));
    for (const item of fresh) this.items.set(item.id, item);
    for (const item of fresh) {
      if (item.blockedBy.length === 0) {
        if (this.blockers.add(item.id, [])) this.ready.push(item);
        continue;
      }
      const verdict = blockerVerdict(item.blockedBy.map((b) => ({ name: b, status: this.blockerStatus(b) })));
      if (verdict.kind === "blocked") {
        this.final.set(item.id, { status: "blocked", summary: `blocked: ${verdict.by.join(", ")} did not land ok` });
        continue;
      }
      // The graph releases it when its last pending blocker lands ok, or blocks it when one does not.
      if (this.blockers.add(item.id, verdict.kind === "waiting" ? verdict.on : [])) this.ready.push(item);
    }
  }

  /** What the blocker rule needs to know of a blocker: landed ok, settled otherwise, or not yet. */
  private blockerStatus(id: string): BlockerStatus {
    const final = this.final.get(id);
    return final === undefined ? "pending" : final.status === "ok" ? "landed-ok" : "not-ok";
  }

  /** The final word on an item: its dependents are released (ok) or blocked for good (not ok). */
  settled(id: string, outcome: SettledOutcome): void {
    if (this.final.has(id)) return;
    const status = outcome.ok ? "ok" : outcome.disposition === "refuse" ? "refused" : "needs-human";
    this.final.set(id, { status, summary: outcome.summary } as FinalStatus);
    if (!outcome.ok) {
      this.blockDependents(id, `${id} did not land ok (${status})`);
      return;
    }
    for (const released of this.blockers.landedOk(id)) this.ready.push(this.items.get(released) as WorkItem<P>);
  }

  /** The store will not grant this item (similar work, evidence): final, and its dependents blocked. */
  denied(id: string, reason: string, detail: string): void {
    this.final.set(id, { status: "denied", summary: `${reason}: ${detail}` });
    this.blockDependents(id, `${id} was denied (${reason})`);
  }

  /** A cap applies and the item has nothing to reserve: final, not claimed, and its dependents blocked. */
  unpriced(id: string, reason: string): void {
    this.final.set(id, { status: "denied", summary: `budget: ${reason}` });
    this.blockDependents(id, `${id} was not claimed (no cost to reserve)`);
  }

  /**
   * The drain ends paused by its budget: every item still ready stays queued, held by budget (its
   * claim untouched, for the next drain), each with `summary`. Returns their ids, best first.
   */
  holdReady(now: number, summary: string): string[] {
    const ids: string[] = [];
    for (let item = this.ready.pop(now); item !== undefined; item = this.ready.pop(now)) {
      this.final.set(item.id, { status: "held", summary });
      ids.push(item.id);
    }
    return ids;
  }

  /** Files an item by what the claim store says of it; returns when to look again, if ever. */
  file(id: string, state: KeyState, now: number): number | undefined {
    this.elsewhere.delete(id);
    if (state.settled !== undefined) {
      this.settled(id, state.settled);
      return undefined;
    }
    if (state.live !== undefined && state.live.expiresAt > now) {
      this.elsewhere.add(id);
      return state.live.expiresAt;
    }
    if (state.notBefore !== undefined && state.notBefore > now) {
      this.backoff.set(id, state.notBefore);
      return state.notBefore;
    }
    this.ready.push(this.items.get(id) as WorkItem<P>);
    return undefined;
  }

  /** Moves items whose backoff ended back to ready; returns the next backoff end, if any. */
  wakeBackoffs(now: number): number {
    let next = Infinity;
    for (const [id, at] of this.backoff) {
      if (at <= now) {
        this.backoff.delete(id);
        this.ready.push(this.items.get(id) as WorkItem<P>);
      } else next = Math.min(next, at);
    }
    return next;
  }

  /** At idle: whatever still waits on a blocker is blocked. Returns every item's final status. */
  close(): ReadonlyMap<string, FinalStatus> {
    for (const [id, pending] of this.blockers.waiting()) {
      if (this.final.has(id)) continue;
      // Waiting on an item held by budget is waiting for money too: it runs once that one does.
      const onHeld = [...pending].some((p) => this.final.get(p)?.status === "held");
      this.final.set(id, onHeld ? { status: "held", summary: `waits for ${[...pending].join(", ")}, held by budget` } : { status: "blocked", summary: `blocked by ${[...pending].join(", ")}` });
    }
    return new Map(this.final);
  }

  private blockDependents(id: string, why: string): void {
    for (const blocked of this.blockers.neverOk(id, why)) {
      if (!this.final.has(blocked.id)) this.final.set(blocked.id, { status: "blocked", summary: `blocked: ${blocked.why}` });
    }
  }
}
