// Policy comparison for docs/replay.md ("The seed's comparison" and "A policy that wins without
// starving anyone"): every replay policy on the two shared beads traces and on generated
// contended traces (3,000 items, 95% offered load, 8 workers), seeds 1-3 used to choose fair's
// coefficient and seeds 4-9 held out. Per trace and policy: weighted flow time, its change against
// oldest, and each band's p95 flow time against oldest's. Measures only; the last line is JSON.
// Run: npx tsx bench/fairness.ts [path/to/traces]   (default ../shared/data/traces)
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { buildTrace } from "../src/core/replay/build-trace.js";
import { generateTraceCsv } from "../src/core/replay/generate-trace-csv.js";
import { importBeadsCsv } from "../src/core/replay/import-beads-csv.js";
import { REPLAY_POLICY_NAMES } from "../src/core/replay/replay-policies.js";
import { runReplay } from "../src/core/replay/run-replay.js";

const dir = process.argv[2] ?? join(import.meta.dirname, "../../shared/data/traces");
const BANDS = ["0", "1", "2", "3", "4"] as const;
const traces: Array<{ name: string; csv: string; workers: number; set: string }> = [
  { name: "beads events-claim", csv: readFileSync(join(dir, "beads_events_claim_trace.csv"), "utf8"), workers: 4, set: "shared" },
  { name: "beads work", csv: readFileSync(join(dir, "beads_work_trace.csv"), "utf8"), workers: 32, set: "shared" },
];
for (let seed = 1; seed <= 9; seed++) traces.push({ name: `gen seed ${seed}`, csv: generateTraceCsv({ items: 3000, seed, workers: 8, load: 0.95 }), workers: 8, set: seed <= 3 ? "tuning" : "held-out" });

const pct = (v: number | null, ref: number | null): number | null => (v === null || ref === null || ref === 0 ? null : Math.round(1000 * (v / ref - 1)) / 10);
const figures: Record<string, Record<string, { wft_h: number | null; vs_oldest_pct: number | null; p95_vs_oldest_pct: Record<string, number | null>; worst_wait_vs_oldest_pct: number | null; meets_target: boolean }>> = {};
for (const t of traces) {
  const run = runReplay(buildTrace([importBeadsCsv(t.csv, t.name)]), { policies: [...REPLAY_POLICY_NAMES], workers: t.workers });
  const base = run.metrics.find((m) => m.policy === "oldest");
  figures[t.name] = {};
  console.log(`\n${t.name} (${t.set}, ${t.workers} workers)`);
  for (const m of run.metrics) {
    const vs = pct(m.weighted_flow_time_h, base?.weighted_flow_time_h ?? null);
    const bands = Object.fromEntries(BANDS.map((b) => [b, pct(m.p95_flow_time_h_by_band[b], base?.p95_flow_time_h_by_band[b] ?? null)]));
    const waits = BANDS.map((b) => pct(m.max_wait_h_by_band[b], base?.max_wait_h_by_band[b] ?? null)).filter((x): x is number => x !== null);
    const worstWait = waits.length === 0 ? null : Math.max(...waits);
    const meets = vs !== null && vs <= -10 && Object.values(bands).every((x) => x === null || x <= 10);
    (figures[t.name] as Record<string, unknown>)[m.policy] = { wft_h: m.weighted_flow_time_h === null ? null : Number(m.weighted_flow_time_h.toFixed(3)), vs_oldest_pct: vs, p95_vs_oldest_pct: bands, worst_wait_vs_oldest_pct: worstWait, meets_target: meets };
    const b = BANDS.map((k) => (bands[k] === null ? "—" : `${bands[k]! > 0 ? "+" : ""}${bands[k]}`)).join(" / ");
    console.log(`  ${m.policy.padEnd(12)} wflow ${m.weighted_flow_time_h?.toFixed(3).padStart(9)} h  ${vs === null ? "" : `${vs > 0 ? "+" : ""}${vs}%`.padStart(7)}  p95 vs oldest P0..P4: ${b}; worst wait ${worstWait === null ? "—" : `${worstWait > 0 ? "+" : ""}${worstWait}%`}${meets ? "  ✓ target" : ""}`);
  }
}
console.log(JSON.stringify(figures));
