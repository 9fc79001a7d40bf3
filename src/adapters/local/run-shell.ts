import { spawn } from "node:child_process";
import { MAX_DURATION_MS } from "../../core/brief/duration.js";

export interface ShellRun {
  /** Exit code, or null when a signal ended the process. */
  readonly exit: number | null;
  readonly signal: NodeJS.Signals | null;
  /** Why Bosun ended it, when it did. */
  readonly killedFor?: "timeout" | "aborted";
  /** The last output lines (stdout and stderr interleaved), not yet redacted. */
  readonly tail: readonly string[];
  readonly error?: string;
}

export interface ShellOptions {
  readonly command: string;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
  readonly tailLines?: number;
  /**
   * Kill the command's whole process group when this process dies, even by SIGKILL: a worker
   * must not outlive the holder of its claim, or a reclaimed item would run twice at once.
   */
  readonly dieWithParent?: boolean;
  /** Called with every chunk of output, e.g. to write a log file. */
  readonly onOutput?: (chunk: string) => void;
}

// Runs the command in the background with stdin from /dev/null, and a reader on our stdin pipe:
// when the pipe reaches EOF (the parent is gone, however it died) it kills the whole group.
// (A background list gets /dev/null as stdin unless redirected, hence the copy to fd 3.)
const WATCHDOG = `exec 3<&0
/bin/sh -c "$1" </dev/null 3<&- &
child=$!
( read -r _ignored <&3; kill -KILL 0 ) &
watch=$!
wait "$child"; code=$?
kill "$watch" 2>/dev/null
exit "$code"`;

// Only the tail is reported, so only a bounded tail is kept: a chatty worker cannot fill memory.
const KEEP_CHARS = 64 * 1024;
// Between SIGTERM and SIGKILL: time for a worker to write its result file and exit on its own.
const KILL_GRACE_MS = 2000;
/**
 * After the shell exits, how long its output pipes may stay open. A command that exits 0 but
 * leaves a background child holding stdout is judged on its exit, not on that child: waiting for
 * `close` once made such a command "time out" after its whole timeout.
 */
export const OUTPUT_GRACE_MS = 500;

/**
 * Runs a command through `/bin/sh -c` in its own process group. At the timeout, or when the
 * signal aborts, the whole group gets SIGTERM and then SIGKILL, so grandchildren die with it.
 */
export function runShell(options: ShellOptions): Promise<ShellRun> {
  return new Promise((resolve) => {
    if (options.timeoutMs !== undefined && !(Number.isFinite(options.timeoutMs) && options.timeoutMs >= 0 && options.timeoutMs <= MAX_DURATION_MS)) {
      // setTimeout fires at once past 2^31-1 ms: such a timeout would kill the command immediately.
      resolve({ exit: null, signal: null, tail: [], error: `timeout ${options.timeoutMs} ms is not between 0 and ${MAX_DURATION_MS} ms (the longest a timer can wait): not run` });
      return;
    }
    let kept = "";
    let killedFor: ShellRun["killedFor"];
    const args = options.dieWithParent === true ? ["-c", WATCHDOG, "bosun-worker", options.command] : ["-c", options.command];
    const child = spawn("/bin/sh", args, {
      cwd: options.cwd,
      env: Object.fromEntries(Object.entries(options.env).filter((e): e is [string, string] => e[1] !== undefined)),
      // With the watchdog, stdin is a pipe this process never writes nor closes: its EOF means we died.
      stdio: [options.dieWithParent === true ? "pipe" : "ignore", "pipe", "pipe"],
      detached: true,
    });
    const keep = (b: Buffer): void => {
      const chunk = b.toString("utf8");
      options.onOutput?.(chunk);
      kept += chunk;
      if (kept.length > KEEP_CHARS * 2) kept = kept.slice(-KEEP_CHARS);
    };
    child.stdout?.on("data", keep);
    child.stderr?.on("data", keep);
    const stop = (why: "timeout" | "aborted"): void => {
      if (killedFor !== undefined) return;
      killedFor = why;
      signalGroup(child.pid, "SIGTERM");
      setTimeout(() => signalGroup(child.pid, "SIGKILL"), KILL_GRACE_MS).unref();
    };
    const timer = options.timeoutMs === undefined ? undefined : setTimeout(() => stop("timeout"), options.timeoutMs);
    const onAbort = (): void => stop("aborted");
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener("abort", onAbort, { once: true });
    const tail = (): string[] => lastLines(kept, options.tailLines ?? 20);
    let finished = false;
    let grace: NodeJS.Timeout | undefined;
    const finish = (run: ShellRun): void => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      clearTimeout(grace);
      options.signal?.removeEventListener("abort", onAbort);
      // Whatever the shell left behind in its group goes with it.
      signalGroup(child.pid, "SIGKILL");
      resolve(run);
    };
    child.on("error", (err) => finish({ exit: null, signal: null, tail: [], error: `could not start /bin/sh: ${err.message}` }));
    const ended = (exit: number | null, signal: NodeJS.Signals | null): ShellRun => ({ exit, signal, tail: tail(), ...(killedFor === undefined ? {} : { killedFor }) });
    child.on("exit", (exit, signal) => {
      // The verdict is the exit; output still in the pipes gets a short, bounded wait.
      grace = setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
        finish(ended(exit, signal));
      }, OUTPUT_GRACE_MS);
    });
    child.on("close", (exit, signal) => finish(ended(exit, signal)));
  });
}

function signalGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is already gone.
  }
}

function lastLines(text: string, n: number): string[] {
  const lines = text.replace(/\s+$/, "").split("\n");
  return lines.length === 1 && lines[0] === "" ? [] : lines.slice(-n);
}
