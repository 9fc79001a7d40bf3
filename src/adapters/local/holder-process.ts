import { readFileSync } from "node:fs";
import { hostname } from "node:os";

/**
 * The process that holds a local claim: its host, its pid, and when it started (Linux's
 * `/proc/<pid>/stat` start time), so a pid the kernel has handed to another program since is not
 * taken for the holder. A drain's workers die with it (spawner-program.ts), so the holder living is
 * the worker's sign of life, as the run's status is on GitHub.
 */
export interface HolderProcess {
  readonly host: string;
  readonly pid: number;
  /** Clock ticks since boot at the process's start; absent where /proc is not readable. */
  readonly started?: string;
}

/** This process, as it writes itself into the claims it takes. */
export function thisHolderProcess(): HolderProcess {
  const started = startTimeOf(process.pid);
  return { host: hostname(), pid: process.pid, ...(started === undefined ? {} : { started }) };
}

/**
 * Whether the holder shows life: on this host, its pid runs and started when it did. A holder on
 * another host (a shared folder) cannot be asked, so it shows none and its lapsed lease is taken back.
 */
export function holderLives(holder: HolderProcess): boolean {
  if (holder.host !== hostname() || !Number.isSafeInteger(holder.pid) || holder.pid <= 0) return false;
  try {
    process.kill(holder.pid, 0);
  } catch (err) {
    // EPERM: it runs, as another user.
    if ((err as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  const stat = statOf(holder.pid);
  // A zombie answers signal 0 but runs nothing: it died, and its parent has not reaped it yet.
  if (stat !== undefined && (stat.state === "Z" || stat.state === "X")) return false;
  if (holder.started === undefined || stat === undefined) return true;
  return stat.started === holder.started;
}

function startTimeOf(pid: number): string | undefined {
  return statOf(pid)?.started;
}

/** Fields 3 (state) and 22 (start time) of /proc/<pid>/stat, after the parenthesised name, which may hold spaces. */
function statOf(pid: number): { state: string; started: string } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const [state, started] = [fields[0], fields[19]];
    return state === undefined || started === undefined ? undefined : { state, started };
  } catch {
    return undefined;
  }
}
