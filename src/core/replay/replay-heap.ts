import { REORDER_EVERY_MS } from "../queue/ready-queue.js";

/**
 * A binary heap of ready items under a policy's `compare`, for the simulation's hot loop.
 *
 * Why not ReadyQueue: it tracks liveness in a Map keyed by string id (a hash insert and delete
 * per item) so that claims elsewhere can remove items lazily; in a replay nothing is removed but
 * by pop, so that bookkeeping is pure cost at a million items. It also types items as QueueItem,
 * which would lose the replay's own fields (index, class). The ordering is the policy's own, and
 * a time-dependent policy is re-ordered on ReadyQueue's cadence (REORDER_EVERY_MS), so a replay
 * orders exactly as the live queue would.
 */
export class ReplayHeap<T> {
  private heap: T[] = [];
  private orderedAt: number;

  constructor(
    private readonly compare: (a: T, b: T, now: number) => number,
    private readonly timeDependent: boolean,
    now: number,
  ) {
    this.orderedAt = now;
  }

  get size(): number {
    return this.heap.length;
  }

  push(item: T): void {
    const heap = this.heap;
    heap.push(item);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const p = heap[parent] as T;
      if (this.compare(item, p, this.orderedAt) >= 0) break;
      heap[i] = p;
      i = parent;
    }
    heap[i] = item;
  }

  /** Takes the first item in policy order, re-ordering first if the policy's order has aged. */
  pop(now: number): T | undefined {
    const heap = this.heap;
    if (heap.length === 0) return undefined;
    if (this.timeDependent && now - this.orderedAt > REORDER_EVERY_MS) {
      this.orderedAt = now;
      for (let i = (heap.length >> 1) - 1; i >= 0; i--) this.siftDown(i);
    }
    const top = heap[0] as T;
    const last = heap.pop() as T;
    if (heap.length > 0) {
      heap[0] = last;
      this.siftDown(0);
    }
    return top;
  }

  private siftDown(i: number): void {
    const heap = this.heap;
    const n = heap.length;
    const item = heap[i] as T;
    const at = this.orderedAt;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      let c = l;
      if (r < n && this.compare(heap[r] as T, heap[l] as T, at) < 0) c = r;
      const child = heap[c] as T;
      if (this.compare(child, item, at) >= 0) break;
      heap[i] = child;
      i = c;
    }
    heap[i] = item;
  }
}
