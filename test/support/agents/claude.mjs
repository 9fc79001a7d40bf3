#!/usr/bin/env node
// Stand-in for Claude Code's print mode: `claude -p PROMPT --output-format json ...` prints one
// result object (type, subtype, is_error, num_turns, result, total_cost_usd, usage, permission_denials).
// A scenario's `usd` is what the run would cost; handed `--max-budget-usd`, it stops there as the
// real tool does (subtype error_max_budget_usd) — the real one checks between turns and can go a
// turn past it; this one stops exactly at it.
import { flag, standIn, unknownOption } from "./stand-in.mjs";

const OPTIONS = { "-p": "flag", "--print": "flag", "--output-format": "value", "--max-turns": "value", "--permission-mode": "value", "--add-dir": "list", "--allowedTools": "list", "--disallowedTools": "list", "--model": "value", "--append-system-prompt": "value", "--verbose": "flag", "--max-budget-usd": "value" };

standIn("claude", {
  declares: true,
  unknownOption: (args) => unknownOption(args, OPTIONS, 1),
  prompt: (args) => flag(args, "-p"),
  output(outcome, args, scenario = {}) {
    const maxTurns = Number(flag(args, "--max-turns") ?? 0);
    const usage = { input_tokens: 1200, cache_creation_input_tokens: 100, cache_read_input_tokens: 50, output_tokens: 300 };
    const max = flag(args, "--max-budget-usd");
    const wants = scenario.usd ?? 0.0421;
    const capped = max !== undefined && wants > Number(max);
    const base = { type: "result", duration_ms: 4200, duration_api_ms: 3900, session_id: "s-1", total_cost_usd: capped ? Number(max) : wants, usage, permission_denials: [] };
    if (capped) return `${JSON.stringify({ ...base, subtype: "error_max_budget_usd", is_error: false, num_turns: 2, result: "" })}\n`;
    if (outcome === "max_turns") return `${JSON.stringify({ ...base, subtype: "error_max_turns", is_error: true, num_turns: maxTurns })}\n`;
    if (outcome === "api_error") return `${JSON.stringify({ ...base, subtype: "success", is_error: true, num_turns: 1, result: "API Error: 529 Overloaded" })}\n`;
    if (outcome === "garbage") return "Thinking... I fixed everything, trust me.\n";
    return `${JSON.stringify({ ...base, subtype: "success", is_error: false, num_turns: 3, result: "Done." })}\n`;
  },
});
