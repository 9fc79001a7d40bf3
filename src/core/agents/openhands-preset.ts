import { done, failed, outOfBudget } from "../stop/stop.js";
import type { AgentOutput, AgentPreset, AgentReport, AgentTask } from "./agent-preset.js";
import { contextExhausted, jsonLines, transient } from "./read-output.js";

/**
 * OpenHands CLI headless (`openhands --headless --json -f FILE`): JSONL events on stdout, always
 * approving its own actions. Its model comes from LLM_API_KEY / LLM_MODEL / LLM_BASE_URL, which
 * the CLI applies only with `--override-with-envs`. The step cap is handed over as
 * MAX_ITERATIONS (OpenHands' name for `max_iterations` in the environment); OpenHands enforces
 * no paths or commands, so those rely on the gate and Bosun's wall clock.
 */
export const openhandsPreset: AgentPreset = {
  name: "openhands",
  executable: "openhands",
  credentials: ["LLM_API_KEY"],
  settings: ["LLM_MODEL", "LLM_BASE_URL"],
  guardrails: { paths: "gate-only", commands: "gate-only", steps: "enforced" },
  explicitFinish: true,
  // No money cap to hand over, and no dollar figure in its output: only its tokens (if any) and Bosun's wall clock bound it.
  money: "not-reported",
  invocation(task: AgentTask) {
    return {
      executable: "openhands",
      args: ["--headless", "--json", "--override-with-envs", "-f", task.promptFile],
      env: { MAX_ITERATIONS: String(task.brief.budget.steps) },
    };
  },
  readOutput(output: AgentOutput): AgentReport {
    const events = jsonLines(output.stdout);
    const errors = events.filter((e) => e["type"] === "error").map((e) => String(e["message"] ?? e["content"] ?? "error"));
    const actions = events.filter((e) => e["type"] === "action").length;
    const summary = `openhands events: ${events.length}, actions: ${actions}, errors: ${errors.length}, exit ${output.exit ?? "by signal"}`;
    const error = errors.at(-1);
    if (error !== undefined) {
      if (/max(imum)?[ _]iterations?/i.test(error)) return { stop: outOfBudget("steps", `openhands: ${error.slice(0, 300)}`), summary };
      if (contextExhausted(error)) return { stop: outOfBudget("tokens", `openhands: ${error.slice(0, 300)}`), summary };
      return { stop: failed(transient(error) ? "retry" : "unclassified", `openhands: ${error.slice(0, 300)}`), summary };
    }
    if (events.length === 0) return { stop: failed("unclassified", `openhands printed no JSON events (exit ${output.exit ?? "by signal"})`), summary };
    if (output.exit !== 0) return { stop: failed("unclassified", `openhands exited ${output.exit ?? "by signal"}`), summary };
    return { stop: done(), summary };
  },
};
