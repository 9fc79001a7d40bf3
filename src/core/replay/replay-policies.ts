import { POLICY_NAMES, policies } from "../queue/queue-policy.js";
import type { ReplayPolicy } from "./replay-policy.js";
import { fromQueuePolicy } from "./replay-policy.js";
import { createSmithPolicy } from "./smith-policy.js";
import { createFairReplayPolicy } from "./fair-replay-policy.js";
import { createFairGuardPolicy } from "./fair-guard-policy.js";

/**
 * Every policy a replay can run: the live queue's, then the replay's own. `fair` is replayed with
 * the running class means the replay learns from completions (as `smith` is); `fair-static` is
 * the live queue's `fair` without duration estimates (as the GitHub scheduler runs it, and as a
 * local drain starts before any run has ended);
 * `fair-guard` is `fair` with a guard that serves an item first once later arrivals have delayed
 * it by a tenth of its arrival-order flow time (replay only: it keeps per-queue state).
 */
export const REPLAY_POLICY_NAMES = [...POLICY_NAMES, "smith", "fair-static", "fair-guard"] as const;

/** A fresh policy by name for one run (smith keeps per-run estimates), or undefined for an unknown name. */
export function createReplayPolicy(name: string, kinds: number): ReplayPolicy | undefined {
  if (name === "smith") return createSmithPolicy(kinds);
  if (name === "fair") return createFairReplayPolicy(kinds);
  if (name === "fair-guard") return createFairGuardPolicy(kinds);
  if (name === "fair-static") return { ...fromQueuePolicy(policies.fair), name: "fair-static" };
  return (POLICY_NAMES as readonly string[]).includes(name) ? fromQueuePolicy(policies[name as (typeof POLICY_NAMES)[number]]) : undefined;
}
