// Replay benchmark (DESIGN.md "Benchmarks"): a generated trace of 1,000,000 items replayed under
// every policy with 64 workers (`--policy a,b` for fewer). Prints progress to stderr and one JSON object as its last line.
// Target: replay_s ≤ 5 × parse_only_s, peak RSS < 2 GB. Run: npx tsx bench/replay.ts [items]
import { performance } from "node:perf_hooks";
import { buildTrace } from "../src/core/replay/build-trace.js";
import { generateTraceCsv } from "../src/core/replay/generate-trace-csv.js";
import { importBeadsCsv } from "../src/core/replay/import-beads-csv.js";
import { REPLAY_POLICY_NAMES } from "../src/core/replay/replay-policies.js";
import { runReplay } from "../src/core/replay/run-replay.js";

const items = Number(process.argv.slice(2).find((a) => !a.startsWith("--")) ?? 1_000_000);
const workers = 64;
// Every policy a replay runs: the time-independent ones and those whose order moves with time.
const chosen = process.argv.find((a) => a.startsWith("--policy="))?.slice("--policy=".length);
const policies: string[] = chosen === undefined ? [...REPLAY_POLICY_NAMES] : chosen.split(",");

// Progress goes to stdout too, so the JSON object is always the last line whatever the reader merges.
const log = (s: string): void => console.log(s);
let t = performance.now();
const text = generateTraceCsv({ items, seed: 1, workers });
log(`generated ${items} items (${(text.length / 1e6).toFixed(0)} MB of CSV) in ${((performance.now() - t) / 1000).toFixed(2)}s`);

t = performance.now();
const trace = buildTrace([importBeadsCsv(text, "generated")]);
const parseOnly = (performance.now() - t) / 1000;
log(`parsed ${trace.items.length} items in ${parseOnly.toFixed(2)}s (${trace.problems.length} problems)`);

t = performance.now();
const run = runReplay(trace, { policies, workers });
const replay = (performance.now() - t) / 1000;
for (const m of run.metrics) {
  log(`${m.policy.padEnd(8)} weighted flow ${m.weighted_flow_time_h?.toFixed(3)} h, gap ${m.gap_to_bound?.toFixed(3)}, idle_with_work ${m.idle_with_work}`);
}
const round = (x: number, d: number): number => Number(x.toFixed(d));
console.log(
  JSON.stringify({
    items: trace.items.length,
    policies: policies.length,
    workers,
    parse_only_s: round(parseOnly, 3),
    replay_s: round(replay, 3),
    items_per_s: Math.round((trace.items.length * policies.length) / replay),
    peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
  }),
);
