/**
 * Running items ordered by completion time, then index (so equal times pop in a fixed order and
 * a replay is deterministic). Parallel typed arrays: at most one entry per worker.
 */
export class CompletionHeap {
  private times: Float64Array;
  private ids: Int32Array;
  size = 0;

  constructor(capacity: number) {
    this.times = new Float64Array(Math.max(1, capacity));
    this.ids = new Int32Array(Math.max(1, capacity));
  }

  /** The earliest completion time; Infinity when nothing runs. */
  peekTime(): number {
    return this.size === 0 ? Infinity : (this.times[0] as number);
  }

  push(time: number, id: number): void {
    if (this.size === this.times.length) this.grow();
    let i = this.size++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      const pt = this.times[p] as number;
      if (pt < time || (pt === time && (this.ids[p] as number) < id)) break;
      this.times[i] = pt;
      this.ids[i] = this.ids[p] as number;
      i = p;
    }
    this.times[i] = time;
    this.ids[i] = id;
  }

  /** Removes the earliest entry and returns its index. */
  pop(): number {
    const top = this.ids[0] as number;
    const n = --this.size;
    const time = this.times[n] as number;
    const id = this.ids[n] as number;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      let c = l;
      const r = l + 1;
      if (r < n && ((this.times[r] as number) < (this.times[l] as number) || ((this.times[r] as number) === (this.times[l] as number) && (this.ids[r] as number) < (this.ids[l] as number)))) c = r;
      const ct = this.times[c] as number;
      if (ct > time || (ct === time && (this.ids[c] as number) > id)) break;
      this.times[i] = ct;
      this.ids[i] = this.ids[c] as number;
      i = c;
    }
    this.times[i] = time;
    this.ids[i] = id;
    return top;
  }

  private grow(): void {
    const t = new Float64Array(this.times.length * 2);
    t.set(this.times);
    const d = new Int32Array(this.ids.length * 2);
    d.set(this.ids);
    this.times = t;
    this.ids = d;
  }
}
