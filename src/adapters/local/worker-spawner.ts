import { type ChildProcess, spawn } from "node:child_process";
import { SPAWNER_PROGRAM } from "./spawner-program.js";

/** What a started shell reports; the same whether it was forked here or by the spawner. */
export interface LaunchHandlers {
  onOutput(chunk: string): void;
  onExit(exit: number | null, signal: NodeJS.Signals | null): void;
  /** Its output pipes are closed: nothing more will arrive. */
  onClose(): void;
  onError(message: string): void;
}

/** A started shell, as `runShell` drives it. */
export interface LaunchedShell {
  /** Signals the shell's whole process group (it was started as a group leader). */
  signal(signal: NodeJS.Signals): void;
  /** Done with it: stop reading its pipes, whatever still holds them. */
  forget(): void;
  /** It did not end `after` its SIGKILL: end the run with an error, and whatever holds the shell. */
  abandon(after: string): void;
}

export interface LaunchRequest {
  readonly command: string;
  readonly cwd: string;
  readonly env: Record<string, string>;
}

type SpawnerMessage = { id: number; out?: string; exit?: number | null; signal?: NodeJS.Signals | null; close?: true; error?: string };

interface Spawner {
  readonly child: ChildProcess;
  readonly runs: Map<number, LaunchHandlers>;
  nextId: number;
}

// One spawner per process, started on first use and shared by every drain in it.
let current: Spawner | undefined;

/**
 * Starts `/bin/sh -c COMMAND`, in a process group of its own, through the long-lived spawner
 * process (see spawner-program.ts for why); the spawner kills it when this process dies.
 * While no run is in flight the spawner keeps nothing alive: this process can exit at idle.
 */
export function launchThroughSpawner(request: LaunchRequest, handlers: LaunchHandlers): LaunchedShell {
  const spawner = (current ??= startSpawner());
  const id = spawner.nextId++;
  spawner.runs.set(id, handlers);
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
      if (current === spawner) current = undefined;
      spawner.child.kill("SIGKILL");
    },
    forget: () => {
      // Once: a late message for a forgotten run finds no handlers and is dropped.
      if (!spawner.runs.delete(id)) return;
      send({ op: "forget", id });
      if (spawner.runs.size === 0) refSpawner(spawner, false);
    },
  };
}

function startSpawner(): Spawner {
  // No environment of ours: the spawner needs none, and each worker gets exactly the one it is sent.
  // Detached: a SIGKILL to this process's group must leave the spawner alive to kill the workers.
  const child = spawn(process.execPath, ["-e", SPAWNER_PROGRAM], { stdio: ["ignore", "ignore", "inherit", "ipc"], env: {}, detached: true });
  const spawner: Spawner = { child, runs: new Map(), nextId: 1 };
  child.on("message", (message: SpawnerMessage) => {
    const handlers = spawner.runs.get(message.id);
    if (handlers === undefined) return;
    if (message.out !== undefined) handlers.onOutput(message.out);
    else if (message.error !== undefined) handlers.onError(message.error);
    else if (message.close === true) handlers.onClose();
    else if ("exit" in message) handlers.onExit(message.exit ?? null, message.signal ?? null);
  });
  const lost = (why: string): void => {
    if (current === spawner) current = undefined;
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
