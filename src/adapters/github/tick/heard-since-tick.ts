import type { TickAsk } from "../../../core/scheduler/tick-ask.js";

/** What the webhooks heard since the last tick hand to the next one (`HeardSinceTick.take`). */
export interface HeardForTick {
  /** Issues whose approval events to read. */
  readonly hinted: ReadonlySet<number>;
  /** What the deliveries asked, when every one of them asked (a heard tick): empty means a whole tick. */
  readonly asks: readonly TickAsk[];
  /** The tick changed nothing (busy, or failed): all of it is for the next one again. */
  putBack(): void;
}

/**
 * What webhooks said between two ticks of a repository: which issues' approval events to read
 * again (hints), what they asked (`TickAsk`), and whether any of them wanted a whole tick. A tick
 * takes it all after its jittered wait; one that changed nothing puts it back.
 */
export class HeardSinceTick {
  private readonly hinted = new Set<number>();
  private readonly asks: TickAsk[] = [];
  private whole = false;

  /** An issue's approval may have changed; `ask`: all the delivery asks (an approval recorded), else it wants a whole tick. */
  hint(n: number, ask?: TickAsk): void {
    this.hinted.add(n);
    if (ask === undefined) this.whole = true;
    else this.asks.push(ask);
  }

  /** What a delivery asks, when that is all; empty: it wants a whole tick. */
  ask(asks: readonly TickAsk[]): void {
    if (asks.length === 0) this.whole = true;
    else this.asks.push(...asks);
  }

  /** Takes all of it for a tick: only a heard tick whose every delivery asked may stop at its asks. */
  take(heard: boolean): HeardForTick {
    const hinted = new Set(this.hinted);
    const taken = [...this.asks];
    const whole = !heard || this.whole;
    this.hinted.clear();
    this.asks.length = 0;
    this.whole = false;
    return {
      hinted,
      asks: whole ? [] : taken,
      putBack: () => {
        for (const n of hinted) this.hinted.add(n);
        this.asks.push(...taken);
        this.whole ||= whole;
      },
    };
  }
}
