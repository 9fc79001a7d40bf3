import type { DurationEstimates, EstimatedQueueItem } from "../queue/queue-policy-type.js";
import { taskClassOf } from "../metrics/task-class.js";

const HOUR = 3_600_000;

interface Sum {
  sum: number;
  n: number;
}

/**
 * What the local engine knows of lengths: the running mean duration, per task class, of the runs
 * it has seen end (dispatch → the worker's result), and over all of them. The class is the claim
 * key's namespace (`taskClassOf`), the same class the gate rejection rate is counted by. Only the
 * past: a class never seen gets the mean of all runs so far, and before any run ends every item
 * counts one hour (so `fair` starts as the one-hour order, exactly as without estimates).
 *
 * Runs are recorded as they end but the queue reads the means as of the last `publish()`: a heap
 * must never hold items ordered by two different sets of estimates, so the engine publishes and
 * re-orders its queue together.
 */
export class ClassDurations implements DurationEstimates {
  private readonly byClass = new Map<string, Sum>();
  private readonly all: Sum = { sum: 0, n: 0 };
  private shown = new Map<string, number>();
  private shownMean = HOUR;
  private publishedAt = -Infinity;

  /** One run of the item with this claim key took `ms`. */
  observe(claimKey: string, ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) return;
    const cls = taskClassOf({ claim_key: claimKey });
    const s = this.byClass.get(cls) ?? { sum: 0, n: 0 };
    s.sum += ms;
    s.n++;
    this.byClass.set(cls, s);
    this.all.sum += ms;
    this.all.n++;
  }

  /**
   * Publishes when `everyMs` has passed since the last publication; true when it did, and the
   * queue must then be re-ordered (a rebuild per completion would be O(queue) each).
   */
  publishDue(now: number, everyMs: number): boolean {
    if (now - this.publishedAt < everyMs) return false;
    this.publishedAt = now;
    this.publish();
    return true;
  }

  /** Makes the runs recorded so far the estimates the queue reads. */
  publish(): void {
    this.shown = new Map([...this.byClass].map(([cls, s]) => [cls, s.sum / s.n]));
    this.shownMean = this.all.n > 0 ? this.all.sum / this.all.n : HOUR;
  }

  expected(item: EstimatedQueueItem): number {
    // The engine's queue holds WorkItems, which carry their claim key; any other item has no class.
    const key = (item as { readonly claimKey?: unknown }).claimKey;
    const known = typeof key === "string" ? this.shown.get(taskClassOf({ claim_key: key })) : undefined;
    return known ?? item.expectedMs ?? this.shownMean;
  }

  mean(): number {
    return this.shownMean;
  }
}
