// The exploration behind fair-guard's choice (docs/replay.md, "How g was chosen"): 42 variants of
// `fair` with one more fairness term each, run on the tuning set (the shared events-claim trace
// and generated seeds 1-3 at 95% load, 8 workers), and with --held-out on the held-out sets of
// bench/fairness.ts as well. Per variant: on how many traces it meets the target (>= 10% lower
// weighted flow time than oldest, no band's p95 more than 10% worse), then per trace its change
// in weighted flow time and its worst band's p95 change. Measures only; the last line is JSON.
//
// The variants here re-read their estimates at every start (a scan of the queue, no heap), so
// `fair` itself comes out a little differently than the replay's own `fair` (a heap re-ordered
// every 60 s); the line `fair` below is the replay's own, for reference.
// Run: npx tsx bench/fairness-variants.ts [--held-out] [path/to/traces]
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { buildTrace } from "../src/core/replay/build-trace.js";
import { compileTrace } from "../src/core/replay/compile-trace.js";
import { generateTraceCsv } from "../src/core/replay/generate-trace-csv.js";
import { importBeadsCsv } from "../src/core/replay/import-beads-csv.js";
import { policyMetrics } from "../src/core/replay/policy-metrics.js";
import { createReplayPolicy } from "../src/core/replay/replay-policies.js";
import type { ReplayPolicy, ReplayQueueItem } from "../src/core/replay/replay-policy.js";
import { simulateReplay } from "../src/core/replay/simulate-replay.js";
import { DurationEstimator } from "../src/core/replay/smith-policy.js";
import { weightedFlowLowerBound } from "../src/core/replay/weighted-flow-lower-bound.js";

const HOUR = 3_600_000;

/** What a variant sees of a waiting item when it decides whether the item is overdue. */
interface Waiting {
  readonly item: ReplayQueueItem;
  /** When it joined the queue, and the variant's own bookkeeping for it. */
  readonly queuedAt: number;
  deadline: number;
  /** Expected work of later arrivals started while it waited. */
  jumped: number;
}

interface Context {
  readonly now: number;
  readonly workers: number;
  /** Running class mean (ms), and the mean over all completions. */
  expected(kind: number): number;
  readonly mean: number;
  /** Σ expected work of the items waiting in the queue. */
  readonly queuedWork: number;
  /** The band's running mean wait and its running q-quantile of (wait + expected) at start, or undefined early on. */
  bandMeanWait(band: number): number | undefined;
  bandFlowQuantile(band: number, q: number): number | undefined;
}

interface Variant {
  readonly name: string;
  /** fair's head start h, and how the length enters the score (default: length itself). */
  readonly h?: number;
  readonly length?: (expected: number, mean: number) => number;
  /** A deadline given at push time (the deadline families). */
  readonly deadline?: (ctx: Context, kind: number, shadowStart: number) => number;
  /** Overdue items are served oldest first, before fair's order. */
  readonly overdue?: (w: Waiting, ctx: Context) => boolean;
}

const variants: Variant[] = [
  ...[0.1, 0.25, 0.5, 1].map((h): Variant => ({ name: `head start h=${h}`, h })),
  ...[0.5, 0.7, 0.9].map((a): Variant => ({ name: `length^${a}`, length: (e, m) => m * (e / m) ** a })),
  ...[0.1, 0.25, 0.5, 1].map((l): Variant => ({ name: `length + ${l}×mean`, length: (e, m) => e + l * m })),
  ...[0.5, 1, 2, 3].map((c): Variant => ({ name: `length capped at ${c}×mean`, length: (e, m) => Math.min(e, c * m) })),
  ...[1.1, 1.3, 1.5].flatMap((k) =>
    [0.1, 0.25, 0.5].map((e): Variant => ({ name: `deadline queued-work÷workers×${k} + ${e}×length`, deadline: (ctx, kind) => ctx.now + (k * ctx.queuedWork) / ctx.workers + e * ctx.expected(kind) })),
  ),
  ...[0, 0.2].flatMap((k) => [0, 0.25].map((e): Variant => ({ name: `shadow arrival order + ${k}×its wait + ${e}×length`, deadline: (ctx, kind, sv) => sv + k * (sv - ctx.now) + e * ctx.expected(kind) }))),
  ...[2, 3].map((k): Variant => ({ name: `wait ≥ ${k}× band mean wait`, overdue: (w, ctx) => { const m = ctx.bandMeanWait(w.item.band); return m !== undefined && ctx.now - w.queuedAt >= k * m; } })),
  ...[0.9, 0.95].flatMap((q) =>
    [1, 1.2].map((k): Variant => ({ name: `wait+length ≥ ${k}× band p${q * 100} flow`, overdue: (w, ctx) => { const f = ctx.bandFlowQuantile(w.item.band, q); return f !== undefined && ctx.now - w.item.createdAt + ctx.expected(w.item.kind) >= k * f; } })),
  ),
  ...[0.05, 0.1, 0.2, 0.3].flatMap((g) =>
    [0, 0.25].map((c): Variant => ({
      name: `jumped guard g=${g}${c === 0 ? "" : ` + ${c}×mean`}`,
      overdue: (w, ctx) => {
        const d = w.jumped / ctx.workers;
        return d >= g * (Math.max(ctx.now - w.queuedAt - d, 0) + ctx.expected(w.item.kind)) + c * ctx.mean;
      },
    })),
  ),
];

function variantPolicy(v: Variant, kinds: number): ReplayPolicy {
  const est = new DurationEstimator(kinds);
  const waitSum = new Float64Array(5);
  const waitN = new Float64Array(5);
  const flows: number[][] = [[], [], [], [], []];
  const all: number[] = [];
  const insert = (xs: number[], x: number): void => {
    let lo = 0;
    let hi = xs.length;
    while (lo < hi) {
      const m = (lo + hi) >> 1;
      if ((xs[m] as number) < x) lo = m + 1;
      else hi = m;
    }
    xs.splice(lo, 0, x);
  };
  return {
    name: v.name,
    observe: (kind, _band, duration) => est.observe(kind, duration),
    createQueue: (_now, workers) => {
      const waiting: Waiting[] = [];
      const shadowFree = new Float64Array(Math.max(workers, 1));
      const context = (now: number): Context => {
        const expected = (kind: number): number => Math.max(est.estimate(kind) ?? HOUR, 1);
        return {
          now,
          workers: Math.max(workers, 1),
          expected,
          mean: Math.max(est.mean() ?? HOUR, 1),
          queuedWork: waiting.reduce((s, w) => s + expected(w.item.kind), 0),
          bandMeanWait: (b) => ((waitN[b] as number) > 0 ? (waitSum[b] as number) / (waitN[b] as number) : undefined),
          bandFlowQuantile: (b, q) => {
            const xs = (flows[b] as number[]).length >= 20 ? (flows[b] as number[]) : all;
            return xs.length >= 20 ? xs[Math.floor(q * (xs.length - 1))] : undefined;
          },
        };
      };
      return {
        get size() {
          return waiting.length;
        },
        push: (item, now) => {
          let deadline = Infinity;
          if (v.deadline !== undefined) {
            const ctx = context(now);
            // The shadow: the same arrivals started in arrival order on the pool's workers, at estimated lengths.
            let m = 0;
            for (let k = 1; k < shadowFree.length; k++) if ((shadowFree[k] as number) < (shadowFree[m] as number)) m = k;
            const sv = Math.max(now, shadowFree[m] as number);
            shadowFree[m] = sv + ctx.expected(item.kind);
            deadline = v.deadline(ctx, item.kind, sv);
          }
          waiting.push({ item, queuedAt: now, deadline, jumped: 0 });
        },
        pop: (now) => {
          if (waiting.length === 0) return undefined;
          const ctx = context(now);
          const h = v.h ?? 0.25;
          const score = (w: Waiting): number => (now - w.item.createdAt + h * (4 - w.item.band) * ctx.mean) / (v.length ?? ((e) => e))(ctx.expected(w.item.kind), ctx.mean);
          const older = (a: Waiting, b: Waiting): boolean => a.item.createdAt < b.item.createdAt || (a.item.createdAt === b.item.createdAt && a.item.id < b.item.id);
          let pick = -1;
          let late = false;
          for (let i = 0; i < waiting.length; i++) {
            const w = waiting[i] as Waiting;
            const overdue = now >= w.deadline || (v.overdue?.(w, ctx) ?? false);
            const best = waiting[pick];
            if (overdue) {
              if (!late || best === undefined || older(w, best)) pick = i;
              late = true;
            } else if (!late && (best === undefined || score(w) > score(best))) pick = i;
          }
          const [chosen] = waiting.splice(pick, 1) as [Waiting];
          const work = ctx.expected(chosen.item.kind);
          for (const w of waiting) if (older(w, chosen)) w.jumped += work;
          const b = chosen.item.band;
          waitSum[b] = (waitSum[b] as number) + (now - chosen.queuedAt);
          waitN[b] = (waitN[b] as number) + 1;
          insert(flows[b] as number[], now - chosen.item.createdAt + work);
          insert(all, now - chosen.item.createdAt + work);
          return chosen.item;
        },
      };
    },
  };
}

const heldOut = process.argv.includes("--held-out");
const dir = process.argv.slice(2).find((a) => !a.startsWith("--")) ?? join(import.meta.dirname, "../test/fixtures/traces");
const traces: Array<{ name: string; csv: string; workers: number }> = [{ name: "events", csv: readFileSync(join(dir, "beads_events_claim_trace.csv"), "utf8"), workers: 4 }];
const gen = (seed: number, workers: number, load: number): void => {
  traces.push({ name: `s${seed}${load === 0.95 ? "" : `@${load}`}${workers === 8 ? "" : `×${workers}`}`, csv: generateTraceCsv({ items: 3000, seed, workers, load }), workers });
};
for (let seed = 1; seed <= 3; seed++) gen(seed, 8, 0.95);
if (heldOut) {
  for (let seed = 4; seed <= 29; seed++) gen(seed, 8, 0.95);
  for (let seed = 10; seed <= 19; seed++) for (const [w, l] of [[8, 0.9], [8, 1], [4, 0.95], [16, 0.95]] as const) gen(seed, w, l);
}

const BANDS = ["0", "1", "2", "3", "4"] as const;
const results: Record<string, { met: number; of: number; traces: Record<string, { vs_oldest_pct: number; worst_band_p95_pct: number; met: boolean }> }> = {};
for (const t of traces) {
  const c = compileTrace(buildTrace([importBeadsCsv(t.csv, t.name)]));
  const bound = weightedFlowLowerBound(c, t.workers).bound;
  const run = (p: ReplayPolicy) => policyMetrics(c, simulateReplay(c, p, { workers: t.workers }), bound);
  const base = run(createReplayPolicy("oldest", c.kindNames.length) as ReplayPolicy);
  const policies = [createReplayPolicy("fair", c.kindNames.length) as ReplayPolicy, ...variants.map((v) => variantPolicy(v, c.kindNames.length))];
  for (const p of policies) {
    const m = run(p);
    const vs = 100 * ((m.weighted_flow_time_h ?? 0) / (base.weighted_flow_time_h ?? 1) - 1);
    const worst = Math.max(...BANDS.map((b) => {
      const r = base.p95_flow_time_h_by_band[b];
      const x = m.p95_flow_time_h_by_band[b];
      return r === null || x === null || r === 0 ? -Infinity : 100 * (x / r - 1);
    }));
    const met = vs <= -10 && worst <= 10;
    const row = (results[p.name] ??= { met: 0, of: 0, traces: {} });
    row.of++;
    if (met) row.met++;
    row.traces[t.name] = { vs_oldest_pct: Math.round(10 * vs) / 10, worst_band_p95_pct: Math.round(10 * worst) / 10, met };
  }
}
for (const [name, r] of Object.entries(results)) {
  const detail = Object.entries(r.traces).map(([t, x]) => `${t} ${x.vs_oldest_pct.toFixed(0)}/${x.worst_band_p95_pct >= 0 ? "+" : ""}${x.worst_band_p95_pct.toFixed(0)}${x.met ? "✓" : "✗"}`);
  console.log(`${name.padEnd(48)} met ${String(r.met).padStart(2)}/${r.of}  ${heldOut ? "" : detail.join("  ")}`);
}
console.log(JSON.stringify(results));
