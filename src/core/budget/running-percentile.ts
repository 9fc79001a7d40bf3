/**
 * A nearest-rank percentile of a growing set of numbers, kept as it grows: the smallest
 * ⌈q·n⌉ values in a max-heap, the rest in a min-heap, so the percentile is the top of the first.
 * Adding a value is O(log n) and reading the percentile O(1). A sorted array cost a shift of half
 * the array per value: at a hundred thousand runs of one class, most of a drain's time.
 */
export class RunningPercentile {
  /** The smallest ⌈q·n⌉ values, largest first (a max-heap). */
  private readonly low: number[] = [];
  /** The others, smallest first (a min-heap). */
  private readonly high: number[] = [];

  /** @param q the percentile as a share, above 0 and at most 1 (0.9: the 90th). */
  constructor(private readonly q: number) {}

  get size(): number {
    return this.low.length + this.high.length;
  }

  add(value: number): void {
    if (this.low.length > 0 && value > (this.low[0] as number)) siftUp(this.high, value, -1);
    else siftUp(this.low, value, 1);
    const want = Math.ceil(this.q * this.size);
    // One value crosses at most: the sets differ from their target sizes by one after one add.
    if (this.low.length > want) siftUp(this.high, popTop(this.low, 1), -1);
    else if (this.low.length < want && this.high.length > 0) siftUp(this.low, popTop(this.high, -1), 1);
  }

  /** The nearest-rank percentile (the ⌈q·n⌉-th smallest value), or undefined before any value. */
  value(): number | undefined {
    return this.low[0];
  }
}

/** Pushes onto a heap ordered by `sign` (1: largest on top, -1: smallest on top). */
function siftUp(heap: number[], value: number, sign: number): void {
  let i = heap.length;
  heap.push(value);
  while (i > 0) {
    const parent = (i - 1) >> 1;
    const p = heap[parent] as number;
    if (sign * (value - p) <= 0) break;
    heap[i] = p;
    i = parent;
  }
  heap[i] = value;
}

/** Removes and returns the top of a non-empty heap ordered by `sign`. */
function popTop(heap: number[], sign: number): number {
  const top = heap[0] as number;
  const last = heap.pop() as number;
  const n = heap.length;
  if (n === 0) return top;
  let i = 0;
  for (;;) {
    const l = 2 * i + 1;
    if (l >= n) break;
    const r = l + 1;
    let c = l;
    if (r < n && sign * ((heap[r] as number) - (heap[l] as number)) > 0) c = r;
    const child = heap[c] as number;
    if (sign * (child - last) <= 0) break;
    heap[i] = child;
    i = c;
  }
  heap[i] = last;
  return top;
}
