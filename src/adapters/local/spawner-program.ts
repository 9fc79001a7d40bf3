import { CUT_FLOOD, CUT_HELD_OPEN, CUT_OVERDUE, LONGEST_AFTER_EXIT_MS, MOST_AFTER_EXIT_BYTES, QUIET_AFTER_EXIT_MS } from "./output-after-exit.js";

/**
 * The program of the worker spawner, run as `node -e SPAWNER_PROGRAM` with an IPC channel.
 *
 * Why a separate process: `child_process.spawn` forks the calling process, and a fork costs in
 * proportion to the caller's resident memory. A drain holding 140 MB spawned about 170 shells a
 * second; a fresh node process holding 45 MB spawns several times more. So the drain asks this
 * small, long-lived process to start its workers and streams their output and exits back.
 *
 * It is a string, not a function's source: bundlers rename and wrap functions (keepNames), and the
 * program must run as written wherever Bosun runs (source, lib/, the Action's dist/).
 *
 * Protocol (JSON over the IPC channel), parent → spawner:
 *   {op:"run", id, command, cwd, env}   start `/bin/sh -c command`, in a process group of its own
 *   {op:"signal", id, signal}           signal the run's whole process group
 *   {op:"end", id}                      the parent is done with a run that has not closed: SIGKILL
 *                                       to what is left of it, and drop its pipes
 * (messages arrive in order, so a signal sent right after its run finds it started);
 * spawner → parent: {id, out} · {id, exit, signal} · {id, close:true, cut?} · {id, error}.
 * `close` comes after all of a run's output: once its pipes closed, or with `cut` (why reading
 * stopped) when a process the worker left behind holds them (output-after-exit.ts). It carries
 * `exit` and `signal` too when the exit was not sent yet (the usual case: a worker's pipes close
 * as it exits). With `close` the run is over on both sides: the spawner SIGKILLs what is left of
 * its group and session, as the parent would, and forgets it; the parent sends nothing more for it.
 * Two messages a run, not five: each is a write and a wake-up of the other process, and on a
 * virtual machine where a process switch is dear they were a good part of a trivial worker's cost.
 *
 * A worker must not outlive the holder of its claim, or a reclaimed item would run twice at once:
 * - the drain dies, however (SIGKILL included): the channel disconnects, and the spawner kills
 *   every group it started and exits. The spawner has a process group of its own (the parent
 *   starts it detached), so a SIGKILL sent to the drain's whole group does not take it first;
 * - the spawner dies, however: its guard, one `sh` reading the list of live groups from a pipe,
 *   sees the pipe close and kills every group still listed. One guard per drain, not a watchdog
 *   shell per worker: that cost two extra processes for every worker started.
 *   A guard that is killed on its own is replaced and told every live group; only a spawner
 *   killed in the moment between its guard's death and the replacement leaves workers behind;
 * - "the worker" is its whole session, not only its process group: a wrapper such as GNU
 *   `timeout` moves the real work into a group of its own. What cannot be caught is a process
 *   that leaves the session (`setsid`, a daemon's double fork): it outlives the drain.
 * SIGINT and SIGTERM are ignored: the drain, not the spawner, decides how its workers stop
 * (SIGTERM, a grace, then SIGKILL).
 */
export const SPAWNER_PROGRAM = String.raw`
"use strict";
const { spawn } = require("node:child_process");
const { StringDecoder } = require("node:string_decoder");
const fs = require("node:fs");
const GUARD = ${JSON.stringify(guardScript())};
const QUIET_AFTER_EXIT_MS = ${QUIET_AFTER_EXIT_MS};
const MOST_AFTER_EXIT_BYTES = ${MOST_AFTER_EXIT_BYTES};
const LONGEST_AFTER_EXIT_MS = ${LONGEST_AFTER_EXIT_MS};
const CUT_HELD_OPEN = ${JSON.stringify(CUT_HELD_OPEN)};
const CUT_FLOOD = ${JSON.stringify(CUT_FLOOD)};
const CUT_OVERDUE = ${JSON.stringify(CUT_OVERDUE)};
const runs = new Map();
const send = (message) => { if (process.connected) process.send(message); };
const signalGroup = (pid, signal) => { try { process.kill(-pid, signal); } catch {} };
// Output waits for the channel: past a megabyte not yet written to it, the pipes it came from
// are paused (their writers block, as on a plain pipe) until the drain has read half of it.
// Without this a worker writing as fast as it can (yes) grew the spawner by 250 MB a second.
const MOST_UNSENT = 1024 * 1024;
let unsent = 0;
const paused = new Set();
function sendOutput(id, out, stream) {
  if (!process.connected) return;
  unsent += out.length;
  process.send({ id, out }, () => {
    unsent -= out.length;
    if (unsent > MOST_UNSENT / 2 || paused.size === 0) return;
    for (const p of paused) p.resume();
    paused.clear();
  });
  if (unsent > MOST_UNSENT) { stream.pause(); paused.add(stream); }
}
let guard;
// Lines go out in one write: each write wakes the guard, which reads it a byte at a time.
const tell = (lines) => { if (lines.length > 0 && guard.stdin.writable) guard.stdin.write(lines.join("\n") + "\n"); };
// A guard killed on its own (a worker's pkill, an operator) is replaced at once and told every
// live group: else a later death of the spawner would leave the workers running.
function startGuard() {
  guard = spawn("/bin/sh", ["-c", GUARD], { stdio: ["pipe", "ignore", "ignore"], detached: true });
  guard.on("error", () => {});
  guard.stdin.on("error", () => {});
  guard.on("exit", startGuard);
  guard.unref();
  tell([...runs.values()].map((run) => "+" + run.pid));
}
startGuard();
process.on("SIGINT", () => {});
process.on("SIGTERM", () => {});
process.on("disconnect", () => {
  for (const run of runs.values()) signalGroup(run.pid, "SIGKILL");
  sweep(new Set([...pending, ...[...runs.values()].map((run) => run.pid)]), "SIGKILL");
  process.exit(0);
});
// A worker's session is its own (it was started detached), and whatever it starts stays in it,
// even in a process group of its own (GNU timeout makes one): each member is signalled too,
// found in /proc (Linux; elsewhere the group alone). One scan costs milliseconds, so the sweep
// after a run's last SIGKILL is batched; a stop (SIGTERM) and the drain's death sweep at once.
const pending = new Set();
let sweepTimer;
function sweepSoon(sid) {
  pending.add(sid);
  sweepTimer ??= setTimeout(() => {
    sweepTimer = undefined;
    const sids = new Set(pending);
    pending.clear();
    sweep(sids, "SIGKILL");
    // Only now off the guard's list: until this sweep, the guard still covers the session.
    const live = new Set([...runs.values()].map((run) => run.pid));
    tell([...sids].filter((sid) => !live.has(sid)).map((sid) => "-" + sid));
  }, 100);
}
// One buffer for every /proc/<pid>/stat read: a sweep reads one per process on the machine, and
// readFileSync's fstat and fresh buffer for each were most of a sweep's cost. A stat line's
// fields up to the session come within its first 80 bytes or so (comm is at most 64).
const statBuffer = Buffer.alloc(512);
function readStat(name) {
  let fd;
  try {
    fd = fs.openSync("/proc/" + name + "/stat", "r");
    return statBuffer.latin1Slice(0, fs.readSync(fd, statBuffer, 0, statBuffer.length, 0));
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) try { fs.closeSync(fd); } catch {}
  }
}
function sweep(sids, signal) {
  let names;
  try { names = fs.readdirSync("/proc"); } catch { return; }
  for (const name of names) {
    const code = name.charCodeAt(0);
    if (code < 48 || code > 57) continue;
    const stat = readStat(name);
    if (stat === undefined) continue;
    // pid (comm) state ppid pgrp session ...: comm may hold spaces and parentheses.
    // A member still in the session's own group already had this signal from signalGroup: sent
    // twice, a worker's TERM trap could run twice.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ", 5);
    if (sids.has(Number(fields[3])) && !sids.has(Number(fields[2]))) try { process.kill(Number(name), signal); } catch {}
  }
}
const stopRun = (pid, signal) => {
  signalGroup(pid, signal);
  if (signal === "SIGKILL") sweepSoon(pid);
  else sweep(new Set([pid]), signal);
};
process.on("message", (message) => {
  if (message.op === "run") return start(message);
  const run = runs.get(message.id);
  if (run === undefined) return;
  if (message.op === "signal") stopRun(run.pid, message.signal);
  if (message.op === "end") endRun(message.id, run);
});
// The run is over: SIGKILL to what is left of its group (the sweep takes the rest of its
// session), its pipes dropped. A late message for it finds nothing.
function endRun(id, run) {
  run.ended = true;
  clearTimeout(run.quiet);
  clearTimeout(run.overdue);
  for (const stream of streamsOf(run)) { paused.delete(stream); stream.destroy(); }
  runs.delete(id);
  signalGroup(run.pid, "SIGKILL");
  sweepSoon(run.pid);
}
function start({ id, command, cwd, env }) {
  let child;
  try {
    child = spawn("/bin/sh", ["-c", command], { cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  } catch (err) {
    return send({ id, error: "could not start /bin/sh: " + (err && err.message) });
  }
  // ENOENT names /bin/sh even when what is missing is the working folder: say which.
  const where = () => (fs.existsSync(cwd) ? "" : " (the working folder " + cwd + " does not exist)");
  child.on("error", (err) => { runs.delete(id); send({ id, error: "could not start /bin/sh: " + err.message + where() }); });
  if (child.pid === undefined) return;
  // Kept until its output ends or the parent ends it; either way its last word is SIGKILL to its group.
  const run = { pid: child.pid, child, exited: false, exit: undefined, after: 0, heard: false, ended: false, quiet: undefined, overdue: undefined };
  runs.set(id, run);
  tell(["+" + child.pid]);
  // One decoder per stream: a chunk may end inside a multi-byte character.
  for (const stream of [child.stdout, child.stderr]) {
    const decoder = new StringDecoder("utf8");
    stream.on("data", (b) => {
      if (run.exited) {
        run.heard = true;
        run.after += b.length;
        if (run.after > MOST_AFTER_EXIT_BYTES) return endOutput(id, run, { reason: CUT_FLOOD, lost: true });
      }
      const out = decoder.write(b);
      if (out !== "") sendOutput(id, out, stream);
    });
    // A last incomplete character (binary output) is still output: one U+FFFD, not nothing.
    stream.on("end", () => {
      const rest = decoder.end();
      if (rest !== "" && !run.ended) sendOutput(id, rest, stream);
    });
    stream.on("error", () => {});
  }
  child.on("exit", (exit, signal) => {
    // Sent with the close when the pipes close in this turn too (they usually do), else on its own.
    run.exit = { id, exit, signal };
    setImmediate(() => {
      if (run.exit === undefined || run.ended) return;
      send(run.exit);
      run.exit = undefined;
    });
    run.exited = true;
    waitQuiet(id, run);
    run.overdue = setTimeout(function check() {
      // Time spent waiting on a slow parent is not the left-behind process's: wait on.
      if (run.ended) return;
      if (streamsOf(run).some((s) => s.isPaused())) run.overdue = setTimeout(check, 1000);
      else endOutput(id, run, { reason: CUT_OVERDUE, lost: true });
    }, LONGEST_AFTER_EXIT_MS);
  });
  child.on("close", () => endOutput(id, run, undefined));
}
const streamsOf = (run) => [run.child.stdout, run.child.stderr];
// After the exit, silence is judged here, beside the pipes, and only after a poll for what is
// ready in them: timers run before I/O in the event loop, so a spawner that was not scheduled for
// a while would otherwise find its timer due before reading output that was waiting all along.
function waitQuiet(id, run) {
  run.heard = false;
  run.quiet = setTimeout(() => setImmediate(() => {
    if (run.ended) return;
    if (run.heard || streamsOf(run).some((s) => s.isPaused())) return waitQuiet(id, run);
    endOutput(id, run, { reason: CUT_HELD_OPEN, lost: false });
  }), QUIET_AFTER_EXIT_MS);
}
// The end of a run's output, sent once and after all of it (messages arrive in order), with the
// exit when that is not sent yet; then the run ends here.
function endOutput(id, run, cut) {
  if (run.ended) return;
  send({ ...run.exit, id, close: true, ...(cut === undefined ? {} : { cut }) });
  run.exit = undefined;
  endRun(id, run);
}
`;

/**
 * The guard: `+PID` adds a live group, `-PID` removes it; at EOF (the spawner is gone) every group
 * still listed gets SIGKILL, and so does the rest of its session where `pkill` exists. Plain POSIX sh with no command per line, so it costs nothing per worker.
 */
function guardScript(): string {
  return [
    'live=" "',
    "while read -r line; do",
    '  case "$line" in',
    '    +*) live="$live${line#+} " ;;',
    '    -*) p="${line#-}"; case "$live" in *" $p "*) live="${live%% $p *} ${live#* $p }" ;; esac ;;',
    "  esac",
    "done",
    // `kill -9 -PGID`: dash's kill takes no `--`, and a negative number names a process group.
    // Then the rest of the worker's session (its own groups), where procps' pkill is installed.
    'for g in $live; do kill -9 "-$g" 2>/dev/null; pkill -9 -s "$g" 2>/dev/null; done',
  ].join("\n");
}
