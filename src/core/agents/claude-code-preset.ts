import { failed, outOfBudget, done } from "../stop/stop.js";
import type { AgentOutput, AgentPreset, AgentReport, AgentTask } from "./agent-preset.js";
import { claudeEditRules } from "./claude-permission-rules.js";
import { lastJsonObject, transient } from "./read-output.js";

/**
 * Claude Code in print mode (`claude -p`): one JSON result on stdout (`--output-format json`),
 * turns capped by `--max-turns`, and `--permission-mode dontAsk` so that whatever the allow rules
 * do not pre-approve is denied instead of waiting for a prompt nobody answers.
 */
export const claudeCodePreset: AgentPreset = {
  name: "claude-code",
  executable: "claude",
  credentials: ["ANTHROPIC_API_KEY"],
  settings: ["ANTHROPIC_MODEL", "ANTHROPIC_BASE_URL"],
  guardrails: { paths: "enforced", commands: "enforced", steps: "enforced" },
  explicitFinish: true,
  // `--max-budget-usd` (print mode only): Claude Code checks it between turns, so one turn can
  // still run past it; Bosun's reservation counts what it reports, overrun included.
  money: "enforced",
  invocation(task: AgentTask) {
    const edits = claudeEditRules(task.brief.constraints.paths);
    // `//path` is an absolute path in a Claude Code rule: the result file is the one edit outside the tree.
    const allowed = ["Read", "Grep", "Glob", ...edits.allow, `Edit(/${task.resultFile})`, `Bash(${task.brief.acceptance.command})`, "Bash(git status)", "Bash(git diff:*)"];
    // Network tools are not part of any brief; a bare name removes the tool altogether.
    const disallowed = ["WebFetch", "WebSearch", ...edits.deny];
    return {
      executable: "claude",
      args: ["-p", task.prompt, "--output-format", "json", "--max-turns", String(task.brief.budget.steps), ...(task.usd === undefined ? [] : ["--max-budget-usd", String(task.usd)]), "--permission-mode", "dontAsk", "--add-dir", task.runDir, "--allowedTools", ...allowed, "--disallowedTools", ...disallowed],
      env: {},
    };
  },
  readOutput(output: AgentOutput): AgentReport {
    const result = lastJsonObject(output.stdout);
    if (result === undefined || result["type"] !== "result") {
      return { stop: failed("unclassified", `claude printed no JSON result (exit ${output.exit ?? "by signal"})`), summary: "no result object on stdout" };
    }
    const usage = (result["usage"] ?? {}) as Record<string, unknown>;
    const tokenFields = ["input_tokens", "output_tokens", "cache_creation_input_tokens", "cache_read_input_tokens"];
    const counted = tokenFields.map((k) => usage[k]).filter((v): v is number => typeof v === "number" && Number.isFinite(v) && v >= 0);
    const tokens = counted.length === 0 ? undefined : counted.reduce((a, b) => a + b, 0);
    const usd = typeof result["total_cost_usd"] === "number" && result["total_cost_usd"] >= 0 ? result["total_cost_usd"] : undefined;
    const subtype = String(result["subtype"] ?? "");
    const turns = typeof result["num_turns"] === "number" ? result["num_turns"] : undefined;
    const denials = Array.isArray(result["permission_denials"]) ? result["permission_denials"].length : 0;
    const text = typeof result["result"] === "string" ? result["result"] : "";
    const summary = `claude result: subtype=${subtype} is_error=${String(result["is_error"])} num_turns=${turns ?? "?"} permission_denials=${denials}`;
    const cost = { ...(tokens === undefined ? {} : { tokens }), ...(usd === undefined ? {} : { usd }) };
    if (subtype === "error_max_budget_usd") return { stop: outOfBudget("usd", `claude stopped at --max-budget-usd having spent ${usd ?? "?"} USD`), summary, ...cost };
    if (subtype === "error_max_turns") return { stop: outOfBudget("steps", `claude stopped at --max-turns after ${turns ?? "?"} turns`), summary, ...cost };
    if (subtype === "success" && result["is_error"] !== true) {
      return { stop: done(denials > 0 ? `claude finished; ${denials} tool call${denials > 1 ? "s were" : " was"} denied by the brief's permissions` : undefined), summary, ...cost };
    }
    const reason = `claude ${subtype || "result"}${text === "" ? "" : `: ${text.slice(0, 300)}`}`;
    return { stop: failed(transient(text) ? "retry" : "unclassified", reason), summary, ...cost };
  },
};
