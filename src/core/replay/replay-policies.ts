import { POLICY_NAMES, policies } from "../queue/queue-policy.js";
import type { ReplayPolicy } from "./replay-policy.js";
import { fromQueuePolicy } from "./replay-policy.js";
import { createSmithPolicy } from "./smith-policy.js";

/** Every policy a replay can run: the live queue's four, then the replay's own. */
export const REPLAY_POLICY_NAMES = [...POLICY_NAMES, "smith"] as const;

/** A fresh policy by name for one run (smith keeps per-run estimates), or undefined for an unknown name. */
export function createReplayPolicy(name: string, kinds: number): ReplayPolicy | undefined {
  if (name === "smith") return createSmithPolicy(kinds);
  return (POLICY_NAMES as readonly string[]).includes(name) ? fromQueuePolicy(policies[name as (typeof POLICY_NAMES)[number]]) : undefined;
}
