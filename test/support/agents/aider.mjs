#!/usr/bin/env node
// Stand-in for scripted aider (`aider --message-file F --yes-always ... FILES`): prints its
// per-message `Tokens: … sent, … received. Cost: $… message, $… session.` lines.
import { readFileSync } from "node:fs";
import { flag, standIn, unknownOption } from "./stand-in.mjs";

const OPTIONS = { "--message": "value", "--message-file": "value", "-f": "value", "--yes-always": "flag", "--no-auto-commits": "flag", "--no-dirty-commits": "flag", "--no-gitignore": "flag", "--no-suggest-shell-commands": "flag", "--test-cmd": "value", "--auto-test": "flag", "--no-stream": "flag", "--no-pretty": "flag", "--input-history-file": "value", "--chat-history-file": "value", "--model": "value" };

standIn("aider", {
  unknownOption: (args) => unknownOption(args, OPTIONS, Infinity),
  prompt: (args) => readFileSync(flag(args, "--message-file"), "utf8"),
  output(outcome) {
    const lines = ["Aider v0.86.1", "Model: claude-sonnet with diff edit format", "Tokens: 2.3k sent, 180 received. Cost: $0.01 message, $0.01 session.", "Applied edit to src/http/retry.ts", "Tokens: 3.1k sent, 220 received. Cost: $0.02 message, $0.03 session."];
    if (outcome === "failed") return `${lines.slice(0, 3).join("\n")}\nlitellm.APIConnectionError: connection refused\n`;
    return `${lines.join("\n")}\n`;
  },
});
