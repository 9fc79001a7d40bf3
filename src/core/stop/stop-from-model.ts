import type { Stop } from "./stop.js";
import { blocked, done, failed, outOfBudget } from "./stop.js";

/** What a model's turn means for the loop: stop with a typed stop, run its tool calls, or resend. */
export type ModelTurn =
  | { readonly next: "stop"; readonly stop: Stop }
  | { readonly next: "run_tools" }
  | { readonly next: "resend" };

/** Turns in which the model said all it meant to: a finish call in a cut-off turn is not trusted. */
const COMPLETE_TURNS = new Set(["tool_use", "end_turn", "stop_sequence"]);

/**
 * Maps an Anthropic `stop_reason` (and whether the explicit finish tool was called in that turn) to
 * what the loop does next (DESIGN.md, "Stop reasons"). Only `finished` leads to `done`: a model that
 * simply stops talking has not claimed completion, so `end_turn` is `blocked` for a human.
 * @example stopFromModel("max_tokens", false) // { next: "stop", stop: { kind: "out_of_budget", limit: "tokens", ... } }
 */
export function stopFromModel(stopReason: string | null, finished: boolean): ModelTurn {
  if (finished && stopReason !== null && COMPLETE_TURNS.has(stopReason)) return { next: "stop", stop: done("finish called") };
  switch (stopReason) {
    case "tool_use":
      return { next: "run_tools" };
    case "pause_turn":
      // A server-side tool paused a long turn; the API asks for the same conversation back.
      return { next: "resend" };
    case "end_turn":
    case "stop_sequence":
      return { next: "stop", stop: blocked(`model ended its turn (${stopReason}) without calling finish`) };
    case "refusal":
      return { next: "stop", stop: blocked("model refused") };
    case "max_tokens":
      return { next: "stop", stop: outOfBudget("tokens", "model hit max_tokens") };
    case "model_context_window_exceeded":
      return { next: "stop", stop: outOfBudget("tokens", "model context window exceeded") };
    case null:
      return { next: "stop", stop: failed("unclassified", "model sent no stop_reason") };
    default:
      // A value this code has never seen is not guessed at (DESIGN.md principle 4).
      return { next: "stop", stop: failed("unclassified", `unknown stop_reason '${stopReason}'`) };
  }
}
