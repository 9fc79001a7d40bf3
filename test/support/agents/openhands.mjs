#!/usr/bin/env node
// Stand-in for `openhands --headless --json -f FILE`: JSONL events (action, observation, error).
import { readFileSync } from "node:fs";
import { flag, standIn, unknownOption } from "./stand-in.mjs";

const line = (e) => `${JSON.stringify(e)}\n`;
const OPTIONS = { "--headless": "flag", "--json": "flag", "--override-with-envs": "flag", "-f": "value", "--file": "value", "-t": "value", "--task": "value" };

standIn("openhands", {
  declares: true,
  unknownOption: (args) => unknownOption(args, OPTIONS, 0),
  prompt: (args) => readFileSync(flag(args, "-f"), "utf8"),
  output(outcome) {
    const work = line({ type: "action", action: "write", path: "src/http/retry.ts" }) + line({ type: "observation", content: "File written" });
    if (outcome === "max_iterations") return work + line({ type: "error", message: "Agent reached maximum iteration limit" });
    return work + line({ type: "action", action: "finish", message: "Done." });
  },
});
