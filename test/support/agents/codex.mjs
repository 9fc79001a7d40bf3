#!/usr/bin/env node
// Stand-in for `codex exec --json PROMPT`: JSONL events (thread.started, turn.started,
// item.completed, turn.completed with usage, or error and turn.failed).
import { standIn, unknownOption } from "./stand-in.mjs";

const line = (e) => `${JSON.stringify(e)}\n`;
const OPTIONS = { "--json": "flag", "--sandbox": "value", "-s": "value", "--ask-for-approval": "value", "-a": "value", "-c": "value", "--config": "value", "--model": "value", "-m": "value", "--ephemeral": "flag", "--skip-git-repo-check": "flag", "-o": "value", "--output-last-message": "value", "-C": "value", "--cd": "value" };

standIn("codex", {
  declares: true,
  unknownOption: (args) => unknownOption(args, OPTIONS, 2),
  prompt: (args) => args.at(-1),
  output(outcome) {
    const start = line({ type: "thread.started", thread_id: "t-1" }) + line({ type: "turn.started" });
    if (outcome === "context") {
      const message = "Codex ran out of room in the model's context window. Start a new thread or clear earlier history before retrying.";
      return start + line({ type: "error", message }) + line({ type: "turn.failed", error: { message } });
    }
    if (outcome === "rate_limit") {
      const message = "stream error: exceeded retry limit, last status: 429 Too Many Requests (rate limit)";
      return start + line({ type: "error", message }) + line({ type: "turn.failed", error: { message } });
    }
    return (
      start +
      line({ type: "item.completed", item: { id: "item_0", type: "command_execution", command: "npm test", aggregated_output: "ok", exit_code: 0, status: "completed" } }) +
      line({ type: "item.completed", item: { id: "item_1", type: "agent_message", text: "Done." } }) +
      line({ type: "turn.completed", usage: { input_tokens: 26549, cached_input_tokens: 22272, output_tokens: 1590 } })
    );
  },
});
