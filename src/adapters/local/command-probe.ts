import { spawn } from "node:child_process";
import type { Probe, ProbeOutcome } from "../../core/verify/probe-outcome.js";
import { readVersion } from "../../core/verify/read-version.js";
import type { VersionSource } from "../../core/verify/read-version.js";

/** How to probe with a command: its stdout is read as `source` says (body, field or regex). */
export interface CommandProbeOptions {
  readonly command: string;
  readonly source: VersionSource;
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
}

const MAX_OUTPUT = 1024 * 1024;

/**
 * A probe that runs `command` through the shell and reads the version from its stdout. A non-zero
 * exit or a timeout is could-not-check; stderr is never reported (it may hold credentials).
 */
export function createCommandProbe(options: CommandProbeOptions): Probe {
  return (timeoutMs) =>
    new Promise<ProbeOutcome>((resolve) => {
      // Its own process group, so a timeout kills the whole pipeline, not just the shell.
      const child = spawn("/bin/sh", ["-c", options.command], {
        cwd: options.cwd,
        env: options.env ?? process.env,
        stdio: ["ignore", "pipe", "ignore"],
        detached: true,
      });
      let stdout = "";
      let timedOut = false;
      child.stdout.setEncoding("utf8");
      child.stdout.on("data", (chunk: string) => {
        if (stdout.length < MAX_OUTPUT) stdout += chunk;
      });
      const timer = setTimeout(() => {
        timedOut = true;
        killGroup(child.pid);
      }, Math.max(1, Math.round(timeoutMs)));
      child.on("error", (err) => {
        clearTimeout(timer);
        resolve({ kind: "unreachable", code: "command-failed", reason: `could not start the command: ${err.message}` });
      });
      child.on("close", (code, signal) => {
        clearTimeout(timer);
        if (timedOut) {
          resolve({ kind: "unreachable", code: "timeout", reason: `the command did not finish within ${Math.round(timeoutMs)} ms` });
        } else if (code !== 0) {
          const how = code === null ? `was killed by ${signal ?? "a signal"}` : `exited ${code}`;
          resolve({ kind: "unreachable", code: "command-failed", reason: `the command ${how}` });
        } else {
          resolve(readVersion(options.source, stdout, {}, "exit 0"));
        }
      });
    });
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // Already gone: nothing to kill.
  }
}
