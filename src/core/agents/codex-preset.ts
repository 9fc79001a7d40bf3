import { done, failed, outOfBudget } from "../stop/stop.js";
import type { AgentOutput, AgentPreset, AgentReport, AgentTask } from "./agent-preset.js";
import { contextExhausted, jsonLines, transient } from "./read-output.js";

/**
 * Codex CLI non-interactive (`codex exec`): JSONL events on stdout (`--json`), writes confined by
 * the `workspace-write` sandbox (the working tree and temp folders, no network), no approval
 * prompts. Codex's sandbox has no per-path rule finer than its writable roots and no turn cap,
 * so paths and steps rely on the gate and Bosun's wall clock.
 */
export const codexPreset: AgentPreset = {
  name: "codex",
  executable: "codex",
  // `codex exec` reads CODEX_API_KEY; OPENAI_API_KEY is the general key.
  credentials: ["CODEX_API_KEY", "OPENAI_API_KEY"],
  settings: ["OPENAI_BASE_URL"],
  guardrails: { paths: "gate-only", commands: "gate-only", steps: "gate-only" },
  explicitFinish: true,
  // No money cap to hand over, and no dollar figure in its output: only its tokens (if any) and Bosun's wall clock bound it.
  money: "not-reported",
  invocation(task: AgentTask) {
    return {
      executable: "codex",
      args: ["exec", "--json", "--sandbox", "workspace-write", "--ask-for-approval", "never", "-c", "sandbox_workspace_write.network_access=false", "-c", `sandbox_workspace_write.writable_roots=${JSON.stringify([task.runDir])}`, task.prompt],
      env: {},
    };
  },
  readOutput(output: AgentOutput): AgentReport {
    const events = jsonLines(output.stdout);
    let tokens: number | undefined;
    let completed = 0;
    let failure: string | undefined;
    for (const e of events) {
      if (e["type"] === "turn.completed") {
        completed += 1;
        const usage = (e["usage"] ?? {}) as Record<string, unknown>;
        // cached_input_tokens are a part of input_tokens, not more of them.
        for (const k of ["input_tokens", "output_tokens"]) {
          const v = usage[k];
          if (typeof v === "number" && Number.isFinite(v) && v >= 0) tokens = (tokens ?? 0) + v;
        }
      } else if (e["type"] === "turn.failed") {
        const error = (e["error"] ?? {}) as Record<string, unknown>;
        failure = String(error["message"] ?? "turn failed");
      } else if (e["type"] === "error" && failure === undefined) {
        failure = String(e["message"] ?? "error");
      }
    }
    const cost = tokens === undefined ? {} : { tokens };
    const summary = `codex events: ${events.length}, turns completed: ${completed}${failure === undefined ? "" : `, failure: ${failure.slice(0, 200)}`}`;
    if (failure !== undefined) {
      if (contextExhausted(failure)) return { stop: outOfBudget("tokens", `codex: ${failure.slice(0, 300)}`), summary, ...cost };
      return { stop: failed(transient(failure) ? "retry" : "unclassified", `codex: ${failure.slice(0, 300)}`), summary, ...cost };
    }
    if (completed === 0) return { stop: failed("unclassified", `codex reported no completed turn (exit ${output.exit ?? "by signal"})`), summary, ...cost };
    if (output.exit !== 0) return { stop: failed("unclassified", `codex exited ${output.exit ?? "by signal"} after its turn completed`), summary, ...cost };
    return { stop: done(), summary, ...cost };
  },
};
