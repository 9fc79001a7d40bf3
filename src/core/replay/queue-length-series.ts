/** Buckets the arrival span is cut into for the queue-length chart; at most twice as many are kept. */
const BUCKETS = 200;

/**
 * The time-weighted mean number of ready items waiting, per time bucket: enough to draw the
 * queue over time for a million-item replay in constant memory per bucket.
 */
export class QueueLengthSeries {
  bucketMs: number;
  private area: number[] = [];
  private last: number;

  constructor(readonly t0: number, tEnd: number) {
    this.bucketMs = Math.max((tEnd - t0) / BUCKETS, 1);
    this.last = t0;
  }

  /** Records that `value` items waited from the last call until `now`. */
  hold(value: number, now: number): void {
    let from = this.last;
    if (now <= from) return;
    this.last = now;
    // The replay ran far past the arrivals (or they all came at once): halve the resolution
    // rather than grow without bound.
    while ((now - this.t0) / this.bucketMs >= 2 * BUCKETS) this.coarsen();
    if (value === 0) return;
    while (from < now) {
      let b = Math.floor((from - this.t0) / this.bucketMs);
      let end = Math.min(now, this.t0 + (b + 1) * this.bucketMs);
      // Rounding can put `from` exactly on a bucket's end; step on rather than loop forever.
      if (end <= from) end = Math.min(now, this.t0 + (++b + 1) * this.bucketMs);
      if (b >= 2 * BUCKETS) {
        this.coarsen(); // rounding at the very end of the range; place the piece again
        continue;
      }
      while (this.area.length <= b) this.area.push(0);
      this.area[b] = (this.area[b] as number) + value * (end - from);
      from = end;
    }
  }

  private coarsen(): void {
    const merged: number[] = [];
    for (let k = 0; k < this.area.length; k += 2) merged.push((this.area[k] ?? 0) + (this.area[k + 1] ?? 0));
    this.area = merged;
    this.bucketMs *= 2;
  }

  /** Mean queue length per bucket, up to the last event recorded. */
  means(): number[] {
    const n = Math.max(this.area.length, Math.ceil((this.last - this.t0) / this.bucketMs));
    return Array.from({ length: n }, (_, b) => (this.area[b] ?? 0) / this.bucketMs);
  }
}

/** A policy's queue length over time, as a report draws it. */
export interface QueueSeries {
  readonly policy: string;
  /** Start of the first bucket, ms since the epoch. */
  readonly t0: number;
  readonly bucketMs: number;
  readonly means: readonly number[];
}
