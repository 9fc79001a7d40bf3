// Drain benchmark (DESIGN.md "Benchmarks"): `bosun drain` over 2,000 briefs, pool 64, worker
// `true`, run from source in a child process, as a user runs it. Prints progress and one JSON
// object as its last line: {items, pool, seconds, items_per_s, peak_rss_mb, cpu_ms_per_item}.
// Target ≥ 200/s. `cpu_ms_per_item` is the CPU of the drain, its spawners and the workers they
// reaped, sampled from /proc every 100 ms (the last moments uncounted; absent where /proc is not):
// on a machine shared with other work it moves with the code, where items_per_s moves with the
// neighbours too. `npm run bench -- workers` gives the ceiling: the worker path alone.
// Run: npm run bench -- drain   (or npx tsx bench/drain.ts [items] [pool])
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";

const args = process.argv.slice(2).filter((a) => !a.startsWith("--"));
const items = Number(args[0] ?? 2000);
const pool = Number(args[1] ?? 64);
// --compiled runs bin/bosun.js over lib/ (build it first: npm run build), as an installed bosun
// runs; by default the CLI runs from source through tsx, which costs memory and so fork time.
const compiled = process.argv.includes("--compiled");
const CLI = fileURLToPath(new URL("../test/support/bosun-cli.ts", import.meta.url));
const BIN = fileURLToPath(new URL("../bin/bosun.js", import.meta.url));
const TSX = new URL("../node_modules/tsx/dist/loader.mjs", import.meta.url).href;

const dir = await mkdtemp(join(tmpdir(), "bosun-bench-drain-"));
const briefs = join(dir, "briefs");
await mkdir(briefs);
// Ids with two tokens (`task:b0001`) so the similarity guard never takes one item for another.
for (let i = 0; i < items; i++) {
  const id = `b${String(i).padStart(5, "0")}`;
  await writeFile(join(briefs, `${id}.yml`), `goal: Benchmark item ${i}.\nconstraints: {paths: [src/**]}\nacceptance: {command: "true"}\nsize_cap: 10\n`);
}
console.log(`wrote ${items} briefs in ${briefs}`);

/** The child's peak resident set (VmHWM), read from /proc while it runs. */
function peakRssMb(pid: number): number | undefined {
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kb === undefined ? undefined : Number(kb) / 1024;
  } catch {
    return undefined;
  }
}

/** CPU seconds of a process and of the children it reaped (/proc/<pid>/stat fields 14–17, in USER_HZ ticks). */
function cpuSeconds(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0) / 100;
  } catch {
    return undefined;
  }
}

/** The last CPU seen of the drain and of each of its children (the spawners), by pid. */
const cpuSeen = new Map<number, number>();
function sampleCpu(pid: number): void {
  let children: number[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(" ").filter((c) => c !== "").map(Number);
  } catch {
    // gone, or not Linux
  }
  for (const p of [pid, ...children]) {
    const cpu = cpuSeconds(p);
    if (cpu !== undefined) cpuSeen.set(p, cpu);
  }
}

const started = performance.now();
const entry = compiled ? [BIN] : ["--import", TSX, CLI];
const child = spawn(process.execPath, [...entry, "drain", "--briefs", briefs, "--state", join(dir, "state"), "--pool", String(pool), "--run", "true"], {
  cwd: dir,
  stdio: ["ignore", "pipe", "inherit"],
});
let peak = 0;
let lands = 0;
let tail = "";
child.stdout.on("data", (b: Buffer) => {
  const text = tail + b.toString();
  const lines = text.split("\n");
  tail = lines.pop() ?? "";
  for (const line of lines) if (line.startsWith("LAND ")) lands++;
  peak = Math.max(peak, peakRssMb(child.pid ?? 0) ?? 0);
});
const watch = setInterval(() => {
  peak = Math.max(peak, peakRssMb(child.pid ?? 0) ?? 0);
  sampleCpu(child.pid ?? 0);
}, 100);
const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
clearInterval(watch);
const seconds = (performance.now() - started) / 1000;
const journal = (await readFile(join(dir, "state", "journal.jsonl"), "utf8").catch(() => "")).split("\n").filter((l) => l.includes('"event":"LAND"')).length;
console.log(`drain exited ${code} after ${seconds.toFixed(2)}s; ${lands} LAND lines, ${journal} LAND events journalled`);
await rm(dir, { recursive: true, force: true });
const round = (x: number, d: number): number => Number(x.toFixed(d));
const cpu = [...cpuSeen.values()].reduce((a, b) => a + b, 0);
console.log(JSON.stringify({ items, pool, ...(compiled ? { compiled } : {}), seconds: round(seconds, 2), items_per_s: round(journal / seconds, 1), peak_rss_mb: round(peak, 1), ...(cpuSeen.size === 0 ? {} : { cpu_ms_per_item: round((cpu * 1000) / items, 2) }) }));
