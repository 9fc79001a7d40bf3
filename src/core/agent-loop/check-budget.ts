import type { Budget } from "../brief/brief.js";
import type { Stop } from "../stop/stop.js";
import { outOfBudget } from "../stop/stop.js";

/** What a run has consumed so far, as the loop counts it before each step. */
export interface LoopUsage {
  /** Model calls made, resends after `pause_turn` included. */
  readonly steps: number;
  /** Input plus output tokens, as the model reported them. */
  readonly tokens: number;
  /** Tool calls that failed in a row since the last one that succeeded. */
  readonly consecutiveToolErrors: number;
  readonly elapsedMs: number;
}

/**
 * The stop for the first budget already spent, or undefined when another step may start. A limit
 * is spent when usage has reached it: `steps: 3` allows three model calls, `tool_errors: 5` stops
 * after the fifth failure in a row. `wall_clock` is in seconds, as in the brief.
 */
export function checkBudget(usage: LoopUsage, budget: Budget): Stop | undefined {
  if (usage.steps >= budget.steps) return outOfBudget("steps", `${usage.steps} of ${budget.steps} steps used`);
  if (usage.tokens >= budget.tokens) return outOfBudget("tokens", `${usage.tokens} of ${budget.tokens} tokens used`);
  if (usage.elapsedMs >= budget.wall_clock * 1000) {
    return outOfBudget("wall_clock", `${Math.round(usage.elapsedMs / 1000)}s of ${budget.wall_clock}s used`);
  }
  if (usage.consecutiveToolErrors >= budget.tool_errors) {
    return outOfBudget("tool_errors", `${usage.consecutiveToolErrors} tool errors in a row`);
  }
  return undefined;
}
