import { describe, expect, it } from "vitest";
import { stopFromModel } from "../../../src/core/stop/stop-from-model.js";

// Every stop_reason the Messages API documents, plus the two a client must survive (none, unknown).
const cases = [
  { reason: "end_turn", finished: false, expected: { next: "stop", stop: { kind: "blocked" } } },
  { reason: "stop_sequence", finished: false, expected: { next: "stop", stop: { kind: "blocked" } } },
  { reason: "refusal", finished: false, expected: { next: "stop", stop: { kind: "blocked", reason: "model refused" } } },
  { reason: "max_tokens", finished: false, expected: { next: "stop", stop: { kind: "out_of_budget", limit: "tokens" } } },
  { reason: "model_context_window_exceeded", finished: false, expected: { next: "stop", stop: { kind: "out_of_budget", limit: "tokens" } } },
  { reason: "pause_turn", finished: false, expected: { next: "resend" } },
  { reason: "tool_use", finished: false, expected: { next: "run_tools" } },
  { reason: "tool_use", finished: true, expected: { next: "stop", stop: { kind: "done" } } },
  { reason: "end_turn", finished: true, expected: { next: "stop", stop: { kind: "done" } } },
  // A finish call in a cut-off or refused turn is not trusted.
  { reason: "max_tokens", finished: true, expected: { next: "stop", stop: { kind: "out_of_budget", limit: "tokens" } } },
  { reason: "refusal", finished: true, expected: { next: "stop", stop: { kind: "blocked" } } },
  { reason: null, finished: false, expected: { next: "stop", stop: { kind: "failed", failure: "unclassified" } } },
  { reason: "compaction", finished: false, expected: { next: "stop", stop: { kind: "failed", failure: "unclassified" } } },
] as const;

describe("stopFromModel", () => {
  it.each(cases)("maps stop_reason $reason (finished: $finished) to $expected.next", ({ reason, finished, expected }) => {
    expect(stopFromModel(reason, finished)).toMatchObject(expected);
  });

  it("names the unknown stop_reason so a human can see what was not classified", () => {
    expect(stopFromModel("pause_run", false)).toEqual({
      next: "stop",
      stop: { kind: "failed", failure: "unclassified", reason: "unknown stop_reason 'pause_run'" },
    });
  });

  it("never calls a turn done without the finish tool", () => {
    for (const reason of ["end_turn", "stop_sequence", "refusal", "max_tokens", "model_context_window_exceeded", "pause_turn", "tool_use", null]) {
      const turn = stopFromModel(reason, false);
      expect(turn.next === "stop" && turn.stop.kind === "done", String(reason)).toBe(false);
    }
  });
});
