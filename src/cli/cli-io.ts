/** What a command may touch of the process: passed in so tests drive commands in-process. */
export interface CliIo {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  readonly stdin: NodeJS.ReadableStream;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
}

/** A subcommand: its one-line summary, its usage text, and run() returning the exit code. */
export interface CliCommand {
  readonly summary: string;
  readonly usage: string;
  run(args: readonly string[], io: CliIo): Promise<number>;
}

/** Exit code for a usage error, for every command (DESIGN.md, "The bosun command"). */
export const EXIT_USAGE = 2;
