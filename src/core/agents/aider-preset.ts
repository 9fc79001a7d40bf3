import { done, failed, outOfBudget } from "../stop/stop.js";
import type { AgentOutput, AgentPreset, AgentReport, AgentTask } from "./agent-preset.js";
import { contextExhausted, transient } from "./read-output.js";

/**
 * aider scripted (`--message-file`, `--yes-always`): it edits the files named on its command
 * line, runs the acceptance command as its test command after each edit (`--test-cmd`,
 * `--auto-test`) and suggests no other shell command. It commits nothing (Bosun does) and keeps
 * its history files out of the working tree. aider prints no JSON: its cost is read from the
 * `Tokens: … sent, … received. Cost: $… message, $… session.` lines it prints per message.
 * `--yes-always` also accepts adding a file the model names, so the file list steers aider but
 * the gate still judges the paths; aider has no step cap.
 */
export const aiderPreset: AgentPreset = {
  name: "aider",
  executable: "aider",
  credentials: ["ANTHROPIC_API_KEY", "OPENAI_API_KEY"],
  settings: ["AIDER_MODEL", "OPENAI_API_BASE"],
  guardrails: { paths: "gate-only", commands: "enforced", steps: "gate-only" },
  // aider edits only files in its chat and runs no command of its own: it cannot write $BOSUN_RESULT.
  explicitFinish: false,
  // No money cap to hand over: it prints what each message cost, read back after the run.
  money: "reported",
  invocation(task: AgentTask) {
    return {
      executable: "aider",
      args: [
        "--message-file", task.promptFile,
        "--yes-always",
        "--no-auto-commits",
        "--no-dirty-commits",
        "--no-gitignore",
        "--no-suggest-shell-commands",
        "--test-cmd", task.brief.acceptance.command,
        "--auto-test",
        "--no-stream",
        "--no-pretty",
        "--input-history-file", `${task.runDir}/aider.input.history`,
        "--chat-history-file", `${task.runDir}/aider.chat.history.md`,
        ...(task.allowedFiles.length === 0 ? [] : ["--", ...task.allowedFiles]),
      ],
      env: {},
    };
  },
  readOutput(output: AgentOutput): AgentReport {
    const text = `${output.stdout}\n${output.stderr}`;
    let tokens: number | undefined;
    let usd: number | undefined;
    let messages = 0;
    for (const line of text.split("\n")) {
      const m = /^Tokens:\s*(.+)$/.exec(line.trim());
      if (m === null) continue;
      messages += 1;
      for (const part of (m[1] ?? "").split(/[,.]\s+/)) {
        const count = /^([\d.]+)([kKmM]?)\s+(sent|received)\b/.exec(part.trim());
        if (count !== null) tokens = (tokens ?? 0) + amount(count[1] ?? "0", count[2] ?? "");
      }
      const session = /\$([\d.]+)\s+session/.exec(line);
      if (session !== null) usd = Number(session[1]);
    }
    const cost = { ...(tokens === undefined ? {} : { tokens: Math.round(tokens) }), ...(usd === undefined || !Number.isFinite(usd) ? {} : { usd }) };
    const summary = `aider: ${messages} message${messages === 1 ? "" : "s"} with token lines, exit ${output.exit ?? "by signal"}`;
    if (output.exit === 0) return { stop: done(), summary, ...cost };
    if (contextExhausted(text)) return { stop: outOfBudget("tokens", "aider: the model's context window was exceeded"), summary, ...cost };
    return { stop: failed(transient(text) ? "retry" : "unclassified", `aider exited ${output.exit ?? "by signal"}`), summary, ...cost };
  },
};

function amount(n: string, suffix: string): number {
  const base = Number(n);
  return suffix === "k" || suffix === "K" ? base * 1000 : suffix === "m" || suffix === "M" ? base * 1_000_000 : base;
}
