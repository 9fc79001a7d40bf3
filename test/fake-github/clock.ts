/** Time as the fake sees it: injectable, so timestamps are reproducible. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export interface ManualClock extends Clock {
  /** Moves time forward by `ms`. */
  advance(ms: number): void;
  set(ms: number): void;
}

/** 2026-01-01T00:00:00Z: the default start, so snapshots and timestamps are stable. */
export const DEFAULT_START = Date.UTC(2026, 0, 1);

/** A clock that moves only when told. */
export function createManualClock(start: number = DEFAULT_START): ManualClock {
  let current = start;
  return {
    now: () => current,
    advance: (ms) => {
      current += ms;
    },
    set: (ms) => {
      current = ms;
    },
  };
}

/** The wall clock, for benchmarks whose stale-read windows are measured in real milliseconds. */
export const systemClock: Clock = { now: () => Date.now() };

/** GitHub's timestamp format: ISO 8601 without milliseconds. */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}
