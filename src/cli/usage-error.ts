import type { CliIo } from "./cli-io.js";
import { EXIT_USAGE } from "./cli-io.js";
import { terminalText } from "./terminal-text.js";

/**
 * A usage error as gh writes one: what is wrong in one line, then where to get help — never the
 * whole usage text again. Returns the usage exit code, so `return usageError(...)` ends a command.
 */
export function usageError(io: CliIo, command: string, message: string): number {
  io.stderr.write(`bosun ${command}: ${terminalText(message)}\nRun 'bosun ${command} --help' for usage.\n`);
  return EXIT_USAGE;
}

/** node:util parseArgs' errors, worded for a person: `Unknown option '--x'` stays as it is. */
export function argsErrorMessage(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  // parseArgs appends advice about '--' for positionals that look like options; one line is enough.
  return message.split(/\.\s+To specify/)[0]?.replace(/\n[\s\S]*/, "") ?? message;
}
