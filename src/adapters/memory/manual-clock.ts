import type { Clock } from "../../core/engine/clock.js";

/**
 * A clock that only moves when told or when slept on: `sleep(ms)` jumps time forward at once.
 * Makes engine runs deterministic and instant in tests, benchmarks and `--dry-run`.
 */
export class ManualClock implements Clock {
  constructor(private ms = Date.UTC(2026, 0, 1)) {}

  now(): number {
    return this.ms;
  }

  advance(ms: number): void {
    this.ms += ms;
  }

  /** Lets other work run first (one macrotask); if nothing aborted the sleep by then, time jumps by `ms`. */
  async sleep(ms: number, signal?: AbortSignal): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (signal?.aborted !== true) this.ms += ms;
  }
}
