// Workers benchmark: the drain's worker path alone — `true` started through the worker spawner
// (runShell, as the drain starts every worker) 2,000 times, 64 at a time, with no claims, journal
// or files. No drain on the same machine can go faster than this: it is the ceiling under
// `bench/drain.ts`, and it shows what starting a process costs on the machine at hand.
// Prints one JSON object last: {workers, pool, seconds, workers_per_s, cpu_ms_per_worker}, where
// the CPU is this process's and the spawners' with every worker they reaped (Linux /proc; the
// field is absent elsewhere).
// Run: npm run bench -- workers   (or npx tsx bench/workers.ts [workers] [pool])
import { readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { performance } from "node:perf_hooks";
import { runShell } from "../src/adapters/local/run-shell.js";

const args = process.argv.slice(2).filter((a) => !a.startsWith("--"));
const workers = Number(args[0] ?? 2000);
const pool = Number(args[1] ?? 64);

/** CPU seconds of a process and of the children it reaped, from /proc/<pid>/stat (fields 14–17). */
function cpuOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0);
    // Clock ticks: 100 a second on every Linux this runs on (USER_HZ).
    return ticks / 100;
  } catch {
    return undefined;
  }
}

/** This process's children that are node processes: the worker spawners. */
function spawners(): number[] {
  const pids: number[] = [];
  let names: string[];
  try {
    names = readdirSync("/proc");
  } catch {
    return pids;
  }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === process.pid && readFileSync(`/proc/${name}/cmdline`, "latin1").startsWith(process.execPath)) pids.push(Number(name));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

const cpuBefore = process.cpuUsage();
const started = performance.now();
let launched = 0;
let ended = 0;
let failed = 0;
await new Promise<void>((resolve) => {
  const next = (): void => {
    if (launched >= workers) return;
    launched++;
    void runShell({ command: "true", cwd: tmpdir(), env: { PATH: process.env["PATH"] }, dieWithParent: true }).then((run) => {
      if (run.exit !== 0) failed++;
      if (++ended === workers) resolve();
      else next();
    });
  };
  for (let i = 0; i < Math.min(pool, workers); i++) next();
});
const seconds = (performance.now() - started) / 1000;
// Read while the spawners still run (they exit once this process does).
const spawnerCpu = spawners().map(cpuOf);
const own = process.cpuUsage(cpuBefore);
const cpu = spawnerCpu.length === 0 || spawnerCpu.some((c) => c === undefined) ? undefined : (own.user + own.system) / 1e6 + spawnerCpu.reduce((a: number, c) => a + (c ?? 0), 0);
console.log(`${workers} workers (${failed} not exit 0) in ${seconds.toFixed(2)}s through ${spawnerCpu.length} spawner(s)`);
const round = (x: number, d: number): number => Number(x.toFixed(d));
console.log(JSON.stringify({ workers, pool, seconds: round(seconds, 2), workers_per_s: round(workers / seconds, 1), ...(cpu === undefined ? {} : { cpu_ms_per_worker: round((cpu * 1000) / workers, 2) }) }));
