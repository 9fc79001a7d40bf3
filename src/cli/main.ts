import type { CliCommand, CliIo } from "./cli-io.js";
import { EXIT_USAGE } from "./cli-io.js";
import { commands } from "./commands.js";
import { terminalText } from "./terminal-text.js";

const VERSION = "0.1.0";

async function helpText(): Promise<string> {
  const lines = ["Usage: bosun <command> [options]", "", "Commands:"];
  for (const [name, load] of Object.entries(commands)) {
    const cmd = await load();
    lines.push(`  ${name.padEnd(8)} ${cmd.summary}`);
  }
  lines.push("", "Run 'bosun help <command>' (or 'bosun <command> --help') for a command's options.", "--json gives machine-readable output (drain, gate, verify, replay, stats, config check, doctor; brief check and trace print JSON always).", "");
  return lines.join("\n");
}

// Only the table's own names: `commands["constructor"]` is Object's, and `bosun constructor`
// (or `bosun help __proto__`) once crashed with a TypeError instead of naming an unknown command.
const commandNamed = (name: string | undefined): (() => Promise<CliCommand>) | undefined =>
  name !== undefined && Object.hasOwn(commands, name) ? commands[name] : undefined;

const unknown = (io: CliIo, name: string): number => {
  io.stderr.write(`bosun: unknown command '${terminalText(name)}'\nRun 'bosun help' for the commands.\n`);
  return EXIT_USAGE;
};

/** The `bosun` command: picks the subcommand and returns the process exit code. */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || (name === "help" && rest.length === 0)) {
    io.stdout.write(await helpText());
    return name === undefined ? EXIT_USAGE : 0;
  }
  if (name === "--version" || name === "-V") {
    io.stdout.write(`${VERSION}\n`);
    return 0;
  }
  // `bosun help drain`, as gh does: the command's own help.
  if (name === "help") {
    const [topic, ...extra] = rest;
    const load = commandNamed(topic);
    if (load === undefined || extra.length > 0) return unknown(io, rest.join(" "));
    io.stdout.write(`${(await load()).usage}\n`);
    return 0;
  }
  const load = commandNamed(name);
  if (load === undefined) return unknown(io, name);
  const cmd = await load();
  if (rest.includes("--help") || rest.includes("-h")) {
    io.stdout.write(`${cmd.usage}\n`);
    return 0;
  }
  return cmd.run(rest, io);
}
