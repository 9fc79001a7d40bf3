import { spawn } from "node:child_process";
import type { AcceptanceRun } from "../../core/gate/check-acceptance.js";
import { redactSecrets } from "../../core/redact/redact-secrets.js";

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

// Only the tail is reported, so only a bounded tail is kept: a chatty test suite cannot fill memory.
const KEEP_BYTES = 64 * 1024;
// After the group is killed, a grandchild that escaped it may still hold the pipes open.
const CLOSE_GRACE_MS = 2000;

/**
 * Runs the command through `/bin/sh -c` in its own process group; at the timeout the whole group
 * is killed. Evidence: the command, its exit code and the last lines of output, secrets redacted.
 */
export function runAcceptance(options: AcceptanceOptions): Promise<AcceptanceRun> {
  // The command is shown in the evidence too: mask it like the output.
  const command = redactSecrets(options.command, options.secrets ?? []);
  const started = performance.now();
  return new Promise((resolve) => {
    let kept = "";
    let timedOut = false;
    let settled = false;
    const child = spawn("/bin/sh", ["-c", options.command], { cwd: options.cwd, env: definedOnly(options.env), stdio: ["ignore", "pipe", "pipe"], detached: true });
    const keep = (b: Buffer) => {
      kept += b.toString("utf8");
      if (kept.length > KEEP_BYTES * 2) kept = kept.slice(-KEEP_BYTES);
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
    const tail = () => redactSecrets(lastLines(kept, options.tailLines ?? 20), options.secrets ?? []);
    const finish = (run: AcceptanceRun) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(run);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
      setTimeout(() => finish({ kind: "timed-out", command, timeoutSeconds: options.timeoutSeconds, tail: tail() }), CLOSE_GRACE_MS).unref();
    }, options.timeoutSeconds * 1000);
    child.on("error", (err) => finish({ kind: "not-run", command, reason: `could not start /bin/sh: ${err.message}` }));
    child.on("close", (code, signal) => {
      if (timedOut) finish({ kind: "timed-out", command, timeoutSeconds: options.timeoutSeconds, tail: tail() });
      else if (code === null) finish({ kind: "killed", command, signal: signal ?? "unknown signal", tail: tail() });
      else finish({ kind: "exited", command, exitCode: code, ms: Math.round(performance.now() - started), tail: tail() });
    });
  });
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // Already gone: nothing left to kill.
  }
}

function lastLines(text: string, n: number): string {
  const lines = text.replace(/\s+$/, "").split("\n");
  return lines.slice(-n).join("\n");
}

function definedOnly(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
}
