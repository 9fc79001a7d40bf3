import type { QueueItem } from "./queue-item.js";
import type { QueuePolicy } from "./queue-policy-type.js";

/** How often a heap under a time-dependent policy (index) is rebuilt, in ms of clock time. */
export const REORDER_EVERY_MS = 60_000;

/**
 * The ready items of one pool as a binary heap under a policy: choosing the next item is
 * O(log n). Removal is lazy (a removed id is skipped when it surfaces), so taking an item out
 * that another worker claimed costs O(1).
 *
 * A time-dependent policy (index) orders by the clock at the last rebuild, and is rebuilt when
 * `now` moves more than REORDER_EVERY_MS past it: within a minute the order is that of the minute's start.
 */
export class ReadyQueue<T extends QueueItem = QueueItem> {
  private heap: T[] = [];
  private readonly live = new Map<string, T>();
  private orderedAt: number;

  constructor(private readonly policy: QueuePolicy, now: number) {
    this.orderedAt = now;
  }

  get size(): number {
    return this.live.size;
  }

  has(id: string): boolean {
    return this.live.has(id);
  }

  push(item: T): void {
    if (this.live.has(item.id)) return;
    this.live.set(item.id, item);
    this.heap.push(item);
    this.siftUp(this.heap.length - 1);
  }

  remove(id: string): boolean {
    return this.live.delete(id);
  }

  /** The best ready item, without taking it. */
  peek(now: number): T | undefined {
    this.refresh(now);
    this.dropDead();
    return this.heap[0];
  }

  /** Takes the best ready item out. */
  pop(now: number): T | undefined {
    const top = this.peek(now);
    if (top === undefined) return undefined;
    this.live.delete(top.id);
    this.takeTop();
    return top;
  }

  /** Every live item in policy order (O(n log n)); for dashboards and shadow comparisons. */
  ordered(now: number): T[] {
    return [...this.live.values()].sort((a, b) => this.policy.compare(a, b, now));
  }

  /**
   * Rebuilds the heap at `now` whatever the cadence: for a policy whose inputs changed (new
   * duration estimates), so the heap never holds items ordered by two different sets of them.
   */
  reorder(now: number): void {
    this.orderedAt = now;
    this.heap = [...this.live.values()];
    for (let i = (this.heap.length >> 1) - 1; i >= 0; i--) this.siftDown(i);
  }

  private refresh(now: number): void {
    if (!this.policy.timeDependent || Math.abs(now - this.orderedAt) <= REORDER_EVERY_MS) return;
    this.reorder(now);
  }

  private dropDead(): void {
    while (this.heap.length > 0) {
      const top = this.heap[0] as T;
      if (this.live.get(top.id) === top) return;
      this.takeTop();
    }
  }

  private takeTop(): void {
    const last = this.heap.pop();
    if (last !== undefined && this.heap.length > 0) {
      this.heap[0] = last;
      this.siftDown(0);
    }
  }

  private before(i: number, j: number): boolean {
    return this.policy.compare(this.heap[i] as T, this.heap[j] as T, this.orderedAt) < 0;
  }

  private swap(i: number, j: number): void {
    const t = this.heap[i] as T;
    this.heap[i] = this.heap[j] as T;
    this.heap[j] = t;
  }

  private siftUp(i: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(i, parent)) return;
      this.swap(i, parent);
      i = parent;
    }
  }

  private siftDown(i: number): void {
    const n = this.heap.length;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let best = i;
      if (l < n && this.before(l, best)) best = l;
      if (r < n && this.before(r, best)) best = r;
      if (best === i) return;
      this.swap(i, best);
      i = best;
    }
  }
}
