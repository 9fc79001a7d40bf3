// Cold start of the bundled Action beside `node -e 0`: each run is a fresh process that loads the
// bundle and reaches a mode (gate, stopped early for want of a token). Prints
// {action_ms_median, node_baseline_ms_median, ratio} last. Measures dist/index.js, or a fresh
// bundle in a temp folder when dist/ has not been built (set BENCH_BUNDLE=fresh to force one).
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const RUNS = Number(process.env["BENCH_RUNS"] ?? 15);
let bundle = join(root, "dist/index.js");
let temp: string | undefined;
if (!existsSync(bundle) || process.env["BENCH_BUNDLE"] === "fresh") {
  temp = mkdtempSync(join(tmpdir(), "bosun-cold-"));
  bundle = join(temp, "index.js");
  const built = spawnSync(process.execPath, [join(root, "scripts/bundle.js"), "--outfile", bundle], { stdio: "inherit" });
  if (built.status !== 0) throw new Error("bundling failed");
}

function time(args: string[], env: NodeJS.ProcessEnv): number {
  const started = performance.now();
  spawnSync(process.execPath, args, { env, stdio: "ignore" });
  return performance.now() - started;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const actionEnv = { PATH: process.env["PATH"], INPUT_MODE: "gate", GITHUB_REPOSITORY: "acme/app", GITHUB_EVENT_NAME: "pull_request" };
const action: number[] = [];
const baseline: number[] = [];
time([bundle], actionEnv); // warm the file cache once, as a runner's disk would be
for (let i = 0; i < RUNS; i++) {
  action.push(time([bundle], actionEnv));
  baseline.push(time(["-e", "0"], { PATH: process.env["PATH"] }));
}
if (temp !== undefined) rmSync(temp, { recursive: true, force: true });
const a = median(action);
const b = median(baseline);
console.error(`bundle ${bundle}: ${RUNS} runs each`);
console.log(JSON.stringify({ action_ms_median: Number(a.toFixed(1)), node_baseline_ms_median: Number(b.toFixed(1)), ratio: Number((a / b).toFixed(2)) }));
