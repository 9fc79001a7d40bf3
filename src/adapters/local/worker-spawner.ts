import { type ChildProcess, spawn } from "node:child_process";
import { CUT_SPAWNER_SILENT, type OutputCut, SPAWNER_SILENT_MS } from "./output-after-exit.js";
import { SPAWNER_PROGRAM } from "./spawner-program.js";

/** What a started shell reports; the same whether it was forked here or by the spawner. */
export interface LaunchHandlers {
  onOutput(chunk: string): void;
  onExit(exit: number | null, signal: NodeJS.Signals | null): void;
  /** Nothing more will arrive: its output pipes closed, or reading stopped for the reason `cut`. */
  onClose(cut?: OutputCut): void;
  onError(message: string): void;
}

/** A started shell, as `runShell` drives it. */
export interface LaunchedShell {
  /** Signals the shell's whole process group (it was started as a group leader). */
  signal(signal: NodeJS.Signals): void;
  /** Done with it: SIGKILL to what is left of its process group, and stop reading its pipes, whatever still holds them. */
  end(): void;
  /** It did not end `after` its SIGKILL: end the run with an error, and whatever holds the shell. */
  abandon(after: string): void;
}

export interface LaunchRequest {
  readonly command: string;
  readonly cwd: string;
  readonly env: Record<string, string>;
}

type SpawnerMessage = { id: number; out?: string; exit?: number | null; signal?: NodeJS.Signals | null; close?: true; cut?: OutputCut; error?: string };

interface Spawner {
  readonly child: ChildProcess;
  /** Runs in flight, until the spawner closes them or this process ends them. */
  readonly runs: Map<number, LaunchHandlers>;
  nextId: number;
  /** Messages received so far: whether the spawner still relays anything. */
  heard: number;
}

/**
 * Spawners shared by every drain in this process, started as they are needed, up to MOST_SPAWNERS.
 * Starting a shell blocks its spawner until the new process has run `exec` (libuv waits for it),
 * and on a busy machine that wait is the scheduler's, not CPU: one spawner then started a few
 * dozen workers a second. A few spawners wait side by side.
 */
const spawners: Spawner[] = [];
/** Enough to overlap the waits on two cores; each is a small node process (about 40 MB). */
export const MOST_SPAWNERS = 3;
/** Runs in flight on every spawner before another one is started. */
const RUNS_BEFORE_ANOTHER = 8;

/** The spawner with the fewest runs in flight, or a new one when all are busy and there is room. */
function pickSpawner(): Spawner {
  let best: Spawner | undefined;
  for (const s of spawners) if (best === undefined || s.runs.size < best.runs.size) best = s;
  if (best !== undefined && (best.runs.size < RUNS_BEFORE_ANOTHER || spawners.length >= MOST_SPAWNERS)) return best;
  const fresh = startSpawner();
  spawners.push(fresh);
  return fresh;
}

function forgetSpawner(spawner: Spawner): void {
  const at = spawners.indexOf(spawner);
  if (at >= 0) spawners.splice(at, 1);
}

/**
 * Starts `/bin/sh -c COMMAND`, in a process group of its own, through the long-lived spawner
 * process (see spawner-program.ts for why); the spawner kills it when this process dies.
 * While no run is in flight the spawner keeps nothing alive: this process can exit at idle.
 */
export function launchThroughSpawner(request: LaunchRequest, handlers: LaunchHandlers): LaunchedShell {
  const spawner = pickSpawner();
  const id = spawner.nextId++;
  // After the exit the spawner sends the end of output itself (output-after-exit.ts); this only
  // notices a spawner that went silent meanwhile, stopped or starved, and says so.
  let watch: NodeJS.Timeout | undefined;
  const watchSilence = (): void => {
    const before = spawner.heard;
    watch = setTimeout(() => {
      // After a poll: messages that were waiting while this process was not scheduled count.
      setImmediate(() => {
        const run = spawner.runs.get(id);
        if (run === undefined) return;
        if (spawner.heard !== before) watchSilence();
        else run.onClose({ reason: CUT_SPAWNER_SILENT, lost: true });
      });
    }, SPAWNER_SILENT_MS);
    watch.unref();
  };
  spawner.runs.set(id, {
    ...handlers,
    onExit: (exit, signal) => {
      handlers.onExit(exit, signal);
      watchSilence();
    },
    onClose: (cut) => {
      clearTimeout(watch);
      handlers.onClose(cut);
    },
  });
  if (spawner.runs.size === 1) refSpawner(spawner, true);
  const send = (message: object): void => {
    if (spawner.child.connected) spawner.child.send(message);
  };
  send({ op: "run", id, ...request });
  return {
    signal: (signal) => send({ op: "signal", id, signal }),
    // The spawner did not carry out a SIGKILL: it is stuck (SIGSTOP, a full channel). Killed, its
    // guard kills every worker group; the other runs end through its exit, this one now.
    abandon: (after) => {
      spawner.runs.get(id)?.onError(`the worker spawner did not answer ${after}: it was killed, and the worker with it`);
      forgetSpawner(spawner);
      spawner.child.kill("SIGKILL");
    },
    end: () => {
      clearTimeout(watch);
      // A run the spawner closed is already off the list and ended there, its group killed;
      // ending twice is ending once.
      if (!spawner.runs.delete(id)) return;
      send({ op: "end", id });
      if (spawner.runs.size === 0) refSpawner(spawner, false);
    },
  };
}

function startSpawner(): Spawner {
  // No environment of ours: the spawner needs none, and each worker gets exactly the one it is sent.
  // Detached: a SIGKILL to this process's group must leave the spawner alive to kill the workers.
  const child = spawn(process.execPath, ["-e", SPAWNER_PROGRAM], { stdio: ["ignore", "ignore", "inherit", "ipc"], env: {}, detached: true });
  const spawner: Spawner = { child, runs: new Map(), nextId: 1, heard: 0 };
  child.on("message", (message: SpawnerMessage) => {
    spawner.heard++;
    const handlers = spawner.runs.get(message.id);
    if (handlers === undefined) return;
    if (message.out !== undefined) handlers.onOutput(message.out);
    else if (message.error !== undefined) handlers.onError(message.error);
    else {
      // A close can carry the exit too: the exit first, as it happened.
      if ("exit" in message) handlers.onExit(message.exit ?? null, message.signal ?? null);
      if (message.close !== true) return;
      // With its close, the run is over on the spawner's side: nothing more is sent for it.
      spawner.runs.delete(message.id);
      if (spawner.runs.size === 0) refSpawner(spawner, false);
      handlers.onClose(message.cut);
    }
  });
  const lost = (why: string): void => {
    forgetSpawner(spawner);
    // Its guard saw the spawner go and killed the workers' groups: each run ends here.
    for (const handlers of [...spawner.runs.values()]) handlers.onError(`the worker spawner ${why}; the worker was stopped with it`);
    spawner.runs.clear();
  };
  child.on("error", (err) => lost(`could not start (${err.message})`));
  child.on("exit", (code, signal) => lost(signal === null ? `exited with ${code ?? "no code"}` : `was ended by ${signal}`));
  child.unref();
  refSpawner(spawner, false);
  return spawner;
}

// `unref` alone is not enough: the IPC channel holds the event loop until it is unref'd too.
function refSpawner(spawner: Spawner, busy: boolean): void {
  if (busy) {
    spawner.child.ref();
    spawner.child.channel?.ref();
  } else {
    spawner.child.unref();
    spawner.child.channel?.unref();
  }
}
