import { mixSeed, seededRandom } from "../random/seeded-random.js";

/** How retries after a failed probe spread out: exponential from `baseMs`, capped, with jitter. */
export interface BackoffPolicy {
  readonly baseMs: number;
  readonly factor: number;
  readonly maxMs: number;
  /** Fraction of each delay that is random, 0 (none) .. 1 (full jitter). */
  readonly jitter: number;
}

/**
 * The delay before retry number `attempt` (1 = first retry), a pure function of its arguments:
 * the same seed gives the same schedule, so a test or a replay can pin it.
 * Jitter only shortens a delay (`d * (1 - jitter * r)`), so `maxMs` stays a true ceiling.
 *
 * @example backoffDelay({ baseMs: 100, factor: 2, maxMs: 1000, jitter: 0 }, 3, 1) // 400
 */
export function backoffDelay(policy: BackoffPolicy, attempt: number, seed: number): number {
  const n = Math.max(1, Math.floor(attempt));
  const ceiling = Math.min(policy.maxMs, policy.baseMs * policy.factor ** (n - 1));
  const jitter = Math.min(1, Math.max(0, policy.jitter));
  const r = seededRandom(mixSeed(seed, n))();
  return Math.max(0, Math.round(ceiling * (1 - jitter * r)));
}
