import type { CliIo } from "./cli-io.js";
import { EXIT_USAGE } from "./cli-io.js";
import { commands } from "./commands.js";

const VERSION = "0.1.0";

async function helpText(): Promise<string> {
  const lines = ["Usage: bosun <command> [options]", "", "Commands:"];
  for (const [name, load] of Object.entries(commands)) {
    const cmd = await load();
    lines.push(`  ${name.padEnd(8)} ${cmd.summary}`);
  }
  lines.push("", "Run `bosun <command> --help` for a command's options.", "");
  return lines.join("\n");
}

/** The `bosun` command: picks the subcommand and returns the process exit code. */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    io.stdout.write(await helpText());
    return name === undefined ? EXIT_USAGE : 0;
  }
  if (name === "--version" || name === "-V") {
    io.stdout.write(`${VERSION}\n`);
    return 0;
  }
  const load = commands[name];
  if (load === undefined) {
    io.stderr.write(`bosun: unknown command '${name}'\n\n${await helpText()}`);
    return EXIT_USAGE;
  }
  const cmd = await load();
  if (rest.includes("--help") || rest.includes("-h")) {
    io.stdout.write(`${cmd.usage}\n`);
    return 0;
  }
  return cmd.run(rest, io);
}
