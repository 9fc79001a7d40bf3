/** Time, injected: the core never reads the clock itself. */
export interface Clock {
  /** ms since the epoch. */
  now(): number;
  /** Resolves after `ms` (or at once when the signal aborts). */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}
