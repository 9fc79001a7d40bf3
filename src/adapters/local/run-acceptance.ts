import type { AcceptanceRun } from "../../core/gate/check-acceptance.js";
import { redactSecrets } from "../../core/redact/redact-secrets.js";
import { runShell } from "./run-shell.js";

/** How to run a brief's acceptance command. */
export interface AcceptanceOptions {
  readonly command: string;
  readonly cwd: string;
  readonly timeoutSeconds: number;
  /** The whole environment of the command: callers strip tokens the head's code must not see. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Values masked in the evidence, besides common token shapes. */
  readonly secrets?: readonly string[];
  /** How many trailing lines of output the evidence keeps (default 20). */
  readonly tailLines?: number;
}

/**
 * Runs the command through `/bin/sh -c` in its own process group (the same runner as the drain's
 * workers); at the timeout the whole group is killed. Evidence: the command, its exit code and the
 * last lines of output, secrets redacted.
 */
export async function runAcceptance(options: AcceptanceOptions): Promise<AcceptanceRun> {
  // The command is shown in the evidence too: mask it like the output.
  const command = redactSecrets(options.command, options.secrets ?? []);
  const started = performance.now();
  const run = await runShell({ command: options.command, cwd: options.cwd, env: options.env, timeoutMs: options.timeoutSeconds * 1000, tailLines: options.tailLines ?? 20 });
  const tail = redactSecrets(run.tail.join("\n"), options.secrets ?? []);
  if (run.error !== undefined) return { kind: "not-run", command, reason: run.error };
  if (run.killedFor === "timeout") return { kind: "timed-out", command, timeoutSeconds: options.timeoutSeconds, tail };
  if (run.exit === null) return { kind: "killed", command, signal: run.signal ?? "unknown signal", tail };
  return { kind: "exited", command, exitCode: run.exit, ms: Math.round(performance.now() - started), tail };
}
