import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { formatConfigProblems } from "../../core/config/format-config-problems.js";
import { MAX_CONFIG_BYTES, parseConfig } from "../../core/config/parse-config.js";
import { readBoundedFile } from "../../adapters/local/read-bounded-file.js";
import type { CliCommand, CliIo } from "../cli-io.js";

import { terminalText } from "../terminal-text.js";
import { argsErrorMessage, usageError } from "../usage-error.js";

const DEFAULT_FILE = ".github/bosun.yml";

const usage = `Usage: bosun config check [FILE] [--json]

Validates a Bosun configuration before you push it, with the same parser the App and the Action
use: the problems printed are exactly those the dashboard would list, each naming its field.

  FILE     the configuration (default: ${DEFAULT_FILE})
  --json   print {"file", "valid", "problems": [{"field", "message"}], "dispatching"} instead

Editors check it as you type with the JSON Schema in schema/bosun-config.schema.json (see docs/app.md).

Exit: 0 valid · 1 invalid · 2 usage error (including a file that cannot be read)`;

async function run(args: readonly string[], io: CliIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], options: { json: { type: "boolean", default: false } }, allowPositionals: true, strict: true });
  } catch (err) {
    return usageError(io, "config", argsErrorMessage(err));
  }
  const [sub, file = DEFAULT_FILE, ...extra] = parsed.positionals;
  if (sub !== "check") return usageError(io, "config", sub === undefined ? "say what to do: bosun config check [FILE]" : `unknown subcommand '${sub}' (the one there is: check)`);
  if (extra.length > 0) return usageError(io, "config", `one file at a time, got also '${extra.join(" ")}'`);
  // Through the reader that never blocks: a FIFO named as the file hung here, /dev/zero filled memory.
  const read = readBoundedFile(resolve(io.cwd, file), { most: MAX_CONFIG_BYTES, symlinks: "follow" });
  if (!read.ok) {
    const hint = file === DEFAULT_FILE && read.missing ? " (without one the App uses the defaults, which dispatch nothing)" : "";
    return usageError(io, "config", `cannot read ${terminalText(file)}: ${read.problem}${hint}`);
  }
  const result = parseConfig(read.text);
  const dispatching = result.ok ? Object.entries(result.config.pools).filter(([, p]) => p.size > 0).map(([name]) => name) : [];
  if (parsed.values.json) {
    io.stdout.write(`${JSON.stringify({ file, valid: result.ok, problems: result.ok ? [] : result.problems, dispatching })}\n`);
    return result.ok ? 0 : 1;
  }
  if (!result.ok) {
    const n = result.problems.length;
    io.stderr.write(`${terminalText(file)}: invalid (${n} problem${n === 1 ? "" : "s"})\n${formatConfigProblems(result.problems).map((l) => `  ${terminalText(l)}\n`).join("")}`);
    return 1;
  }
  const pools = Object.entries(result.config.pools).map(([name, p]) => `${name} (size ${p.size}, ${p.dispatch.kind})`);
  io.stdout.write(`${terminalText(file)}: valid; policy ${result.config.policy}; pools: ${terminalText(pools.join(", "))}\n`);
  if (dispatching.length === 0) io.stdout.write("note: no pool has a size above 0, so nothing will be dispatched (docs/dispatch.md)\n");
  return 0;
}

const command: CliCommand = { summary: "check a .github/bosun.yml before you push it", usage, run };
export default command;

