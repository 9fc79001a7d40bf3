/**
 * How a worker's output is read once the worker has exited. Its own output is then in the pipes
 * already (a process exits only after its writes went in), so it is read at once, however busy the
 * machine; what can still come is written by a process it left behind. Reading goes on until the
 * pipes close, and is cut only for what a left-behind process does, never for a clock alone:
 * the old fixed 500 ms grace, measured where the output arrived (behind a busy spawner's relay),
 * cut whole workers' logs short on a loaded machine.
 */

/** Post-exit silence, measured where the pipes are read, after which a holder is judged idle. */
export const QUIET_AFTER_EXIT_MS = 500;
/** More than this read after the exit cannot be what the worker left in its pipes (64 KB each). */
export const MOST_AFTER_EXIT_BYTES = 1024 * 1024;
/** Output still coming this long after the exit (time spent waiting on a slow reader excluded). */
export const LONGEST_AFTER_EXIT_MS = 30_000;
/** The spawner relaying nothing at all for this long, while a run waits for its end of output. */
export const SPAWNER_SILENT_MS = 30_000;

/** Why the output of a run was not read to its end; `lost`: output was still coming. */
export interface OutputCut {
  readonly reason: string;
  readonly lost: boolean;
}

export const CUT_HELD_OPEN = `the worker exited and a process it left behind kept its output open without writing for ${QUIET_AFTER_EXIT_MS / 1000} s: reading stopped there`;
export const CUT_FLOOD = `the worker exited and a process it left behind wrote more than ${MOST_AFTER_EXIT_BYTES / (1024 * 1024)} MB after it: the rest was not read`;
export const CUT_OVERDUE = `the worker exited and a process it left behind was still writing ${LONGEST_AFTER_EXIT_MS / 1000} s later: the rest was not read`;
export const CUT_SPAWNER_SILENT = `the worker spawner relayed nothing for ${SPAWNER_SILENT_MS / 1000} s after the worker exited: output may be missing from here`;
