import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { StringDecoder } from "node:string_decoder";
import { MAX_DURATION_MS } from "../../core/brief/duration.js";
import { CUT_FLOOD, CUT_HELD_OPEN, CUT_OVERDUE, LONGEST_AFTER_EXIT_MS, MOST_AFTER_EXIT_BYTES, type OutputCut, QUIET_AFTER_EXIT_MS } from "./output-after-exit.js";
import { type LaunchedShell, type LaunchHandlers, launchThroughSpawner } from "./worker-spawner.js";

export interface ShellRun {
  /** Exit code, or null when a signal ended the process. */
  readonly exit: number | null;
  readonly signal: NodeJS.Signals | null;
  /** Why Bosun ended it, when it did. */
  readonly killedFor?: "timeout" | "aborted";
  /** The last output lines (stdout and stderr interleaved), not yet redacted. */
  readonly tail: readonly string[];
  readonly error?: string;
  /** Output was not read to its end, and why (output-after-exit.ts); the tail ends where it stopped. */
  readonly outputCut?: OutputCut;
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

// Only the tail is reported, so only a bounded tail is kept: a chatty worker cannot fill memory.
const KEEP_CHARS = 64 * 1024;
// Between SIGTERM and SIGKILL: time for a worker to write its result file and exit on its own.
const KILL_GRACE_MS = 2000;
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
    const env = Object.fromEntries(Object.entries(options.env).filter((e): e is [string, string] => e[1] !== undefined));
    const tail = (): string[] => lastLines(kept, options.tailLines ?? 20);
    let finished = false;
    let timer: NodeJS.Timeout | undefined;
    const finish = (run: ShellRun): void => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      // Whatever the shell left behind in its group goes with it.
      shell.end();
      resolve(run);
    };
    const ended = (exit: number | null, signal: NodeJS.Signals | null, why: ShellRun["killedFor"]): ShellRun => ({ exit, signal, tail: tail(), ...(why === undefined ? {} : { killedFor: why }) });
    // The verdict as of the exit; the tail is taken at the end, after the output that came later.
    let exited: { exit: number | null; signal: NodeJS.Signals | null; why: ShellRun["killedFor"] } | undefined;
    const verdict = (cut: OutputCut | undefined): ShellRun => ({
      ...(exited === undefined ? ended(null, null, killedFor) : ended(exited.exit, exited.signal, exited.why)),
      ...(cut === undefined ? {} : { outputCut: cut }),
    });
    const handlers: LaunchHandlers = {
      onOutput: (chunk) => {
        options.onOutput?.(chunk);
        kept += chunk;
        if (kept.length > KEEP_CHARS * 2) kept = kept.slice(-KEEP_CHARS);
      },
      // The verdict is the exit; the run ends when its output does, which the launcher bounds
      // against whatever the command left behind holding its pipes (output-after-exit.ts).
      onExit: (exit, signal) => {
        exited = { exit, signal, why: killedFor };
      },
      onClose: (cut) => finish(verdict(cut)),
      onError: (message) => finish({ exit: null, signal: null, tail: tail(), error: message, ...(killedFor === undefined ? {} : { killedFor }) }),
    };
    // A worker (dieWithParent) starts through the spawner: forking this, possibly large, process
    // for every worker capped a drain near 170 workers a second (worker-spawner.ts).
    const shell = options.dieWithParent === true ? launchThroughSpawner({ command: options.command, cwd: options.cwd, env }, handlers) : launchHere(options.command, options.cwd, env, handlers);
    const stop = (why: "timeout" | "aborted"): void => {
      if (killedFor !== undefined || finished) return;
      killedFor = why;
      shell.signal("SIGTERM");
      setTimeout(() => {
        if (finished) return;
        shell.signal("SIGKILL");
        // Still not ended: what started it stopped answering (a spawner held by SIGSTOP). The run
        // must end all the same, and the shell with it.
        setTimeout(() => {
          if (!finished) shell.abandon(`${KILL_GRACE_MS / 1000} s after SIGKILL`);
        }, KILL_GRACE_MS).unref();
      }, KILL_GRACE_MS).unref();
    };
    if (options.timeoutMs !== undefined) timer = setTimeout(() => stop("timeout"), options.timeoutMs);
    const onAbort = (): void => stop("aborted");
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** Forks `/bin/sh -c COMMAND` from this process, in a process group of its own. */
function launchHere(command: string, cwd: string, env: Record<string, string>, handlers: LaunchHandlers): LaunchedShell {
  let child;
  try {
    child = spawn("/bin/sh", ["-c", command], { cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  } catch (err) {
    // Some failures throw rather than emit (E2BIG: a command or environment past the kernel's
    // limit); the run ends with the error as for any other start failure, once `shell` is set.
    queueMicrotask(() => handlers.onError(`could not start /bin/sh: ${err instanceof Error ? err.message : String(err)}`));
    return { signal: () => undefined, abandon: () => undefined, end: () => undefined };
  }
  // After the exit: read on until the pipes close, cut only for what a left-behind process does
  // (the same rules as the spawner's, output-after-exit.ts).
  let exited = false;
  let ended = false;
  let after = 0;
  let heard = false;
  let quiet: NodeJS.Timeout | undefined;
  let overdue: NodeJS.Timeout | undefined;
  const endOutput = (cut: OutputCut | undefined): void => {
    if (ended) return;
    ended = true;
    clearTimeout(quiet);
    clearTimeout(overdue);
    if (cut !== undefined) for (const stream of [child.stdout, child.stderr]) stream.destroy();
    handlers.onClose(cut);
  };
  const waitQuiet = (): void => {
    heard = false;
    // Judged after a poll: output waiting in the pipes while this process was not scheduled counts.
    quiet = setTimeout(() => setImmediate(() => (heard ? waitQuiet() : endOutput({ reason: CUT_HELD_OPEN, lost: false }))), QUIET_AFTER_EXIT_MS);
  };
  for (const stream of [child.stdout, child.stderr]) {
    const decoder = new StringDecoder("utf8");
    stream.on("data", (b: Buffer) => {
      if (exited) {
        heard = true;
        after += b.length;
        if (after > MOST_AFTER_EXIT_BYTES) return endOutput({ reason: CUT_FLOOD, lost: true });
      }
      const text = decoder.write(b);
      if (text !== "") handlers.onOutput(text);
    });
  }
  // ENOENT names /bin/sh even when what is missing is the working folder: say which.
  child.on("error", (err) => handlers.onError(`could not start /bin/sh: ${err.message}${existsSync(cwd) ? "" : ` (the working folder ${cwd} does not exist)`}`));
  child.on("exit", (exit, signal) => {
    handlers.onExit(exit, signal);
    exited = true;
    waitQuiet();
    overdue = setTimeout(() => endOutput({ reason: CUT_OVERDUE, lost: true }), LONGEST_AFTER_EXIT_MS);
  });
  child.on("close", () => endOutput(undefined));
  return {
    signal: (signal) => signalGroup(child.pid, signal),
    abandon: (after) => handlers.onError(`/bin/sh did not end ${after}`),
    end: () => {
      signalGroup(child.pid, "SIGKILL");
      ended = true;
      clearTimeout(quiet);
      clearTimeout(overdue);
      child.stdout.destroy();
      child.stderr.destroy();
    },
  };
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
