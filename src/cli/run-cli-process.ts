import { main } from "./main.js";

/**
 * Runs `bosun ARGV` as this process: the one entry shared by `bin/bosun.js` and the tests.
 *
 * `bosun drain | head` closes our stdout early. That is the reader's choice, not a reason to
 * abandon work half done: exiting there would leave claims held and briefs never run, and any
 * status chosen at that moment would hide the real outcome. So a closed stdout (or stderr) is
 * noted once on stderr and further output to it is dropped; the command carries on, its journal
 * still records everything, and the exit status is the command's own.
 */
export async function runCliProcess(argv: readonly string[]): Promise<void> {
  const closed = new Set<string>();
  const onClosed = (name: "stdout" | "stderr") => (err: NodeJS.ErrnoException) => {
    if (err.code !== "EPIPE" && err.code !== "ERR_STREAM_DESTROYED") throw err;
    if (closed.has(name)) return;
    closed.add(name);
    if (name === "stdout" && !closed.has("stderr")) process.stderr.write("bosun: stdout was closed by its reader; carrying on without it (the journal records everything)\n");
  };
  process.stdout.on("error", onClosed("stdout"));
  process.stderr.on("error", onClosed("stderr"));
  process.exitCode = await main(argv, { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env, cwd: process.cwd() });
}
