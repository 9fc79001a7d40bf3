import type { Disposition, Stop } from "./stop.js";
import { dispositionOf } from "./stop.js";

/**
 * What to do with a run's stop at this attempt: its own disposition, except that a retryable
 * failure on the last allowed attempt goes to a human instead, with a note saying so.
 */
export function dispositionFor(stop: Stop, attempt: number, maxAttempts: number): { disposition: Disposition; note?: string } {
  const disposition = dispositionOf(stop);
  if (disposition === "retry" && attempt >= maxAttempts) return { disposition: "human", note: `attempts exhausted (${maxAttempts})` };
  return { disposition };
}
