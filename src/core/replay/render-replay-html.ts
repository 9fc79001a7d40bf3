import type { ReplayReport } from "./build-replay-report.js";
import { formatHours } from "./build-replay-report.js";
import type { QueueSeries } from "./queue-length-series.js";
import { esc, groupedBars, lineChart } from "./svg-charts.js";
import { HOUR_MS } from "./trace.js";

export type { QueueSeries } from "./queue-length-series.js";

const BANDS = ["0", "1", "2", "3", "4"] as const;
const STYLE = `body{font:14px/1.45 system-ui,sans-serif;max-width:800px;margin:2em auto;color:#222;padding:0 1em}
h1{font-size:1.4em}h2{font-size:1.1em;margin-top:2em}svg{width:100%;height:auto;font-size:11px}
.title{font-weight:600;font-size:13px}.small{font-size:10px}.grid{stroke:#ddd}.marker{stroke:#222;stroke-dasharray:4 3}
table{border-collapse:collapse;font-size:12px}td,th{padding:2px 8px;text-align:right;border-bottom:1px solid #eee}
td:first-child,th:first-child{text-align:left}.best{font-weight:700}.note{color:#555}code{font-size:12px}`;

/**
 * A self-contained HTML report: the verdict first (which policy has the lowest weighted flow
 * time and by how much against the baseline `oldest`), then charts as inline SVG, then the
 * numbers and the trace's problems. No scripts, no external assets.
 */
export function renderReplayHtml(report: ReplayReport, queues: readonly QueueSeries[]): string {
  const ps = report.policies;
  const t = report.trace;
  const ranked = ps.filter((p) => p.weighted_flow_time_h !== null).sort((a, b) => (a.weighted_flow_time_h as number) - (b.weighted_flow_time_h as number));
  const best = ranked[0];
  const base = ps.find((p) => p.policy === "oldest");
  let verdict = "No policy completed any item.";
  if (best !== undefined) {
    verdict = `<b>${esc(best.policy)}</b> has the lowest weighted flow time: ${formatHours(best.weighted_flow_time_h)} h, ${best.gap_to_bound === null ? "" : `${best.gap_to_bound.toFixed(2)}× the lower bound`}`;
    if (base !== undefined && base !== best && base.weighted_flow_time_h !== null && base.weighted_flow_time_h > 0) {
      verdict += `, ${(100 * (1 - (best.weighted_flow_time_h as number) / base.weighted_flow_time_h)).toFixed(0)}% below the baseline <b>oldest</b>`;
    }
    verdict += ". Check the worst waits per band below before adopting it: a lower mean bought by starving a band is not a win (DESIGN.md principle 8).";
  }
  const names = ps.map((p) => p.policy);
  const bound = ps[0]?.lower_bound_weighted_flow_time_h ?? null;
  const charts = [
    groupedBars("Weighted flow time per policy (dashed: lower bound)", "hours", ["weighted flow time"], ps.map((p) => ({ name: p.policy, values: [p.weighted_flow_time_h] })), bound === null ? undefined : { label: "bound", value: bound }),
    groupedBars("p95 flow time per band", "hours", BANDS.map((b) => `P${b}`), ps.map((p) => ({ name: p.policy, values: BANDS.map((b) => p.p95_flow_time_h_by_band[b]) }))),
    groupedBars("Worst wait (ready → start) per band: starvation", "hours", BANDS.map((b) => `P${b}`), ps.map((p) => ({ name: p.policy, values: BANDS.map((b) => p.max_wait_h_by_band[b]) }))),
    lineChart("Ready items waiting over time (mean per interval)", "items", (queues[0]?.bucketMs ?? HOUR_MS) / HOUR_MS, queues.map((q) => ({ name: q.policy, values: q.means }))),
  ];
  const bestWft = best?.weighted_flow_time_h ?? null;
  const rows = ps.map((p) => {
    const cls = p.weighted_flow_time_h === bestWft ? ' class="best"' : "";
    const cells = [p.weighted_flow_time_h, p.mean_flow_time_h, ...BANDS.map((b) => p.p95_flow_time_h_by_band[b]), ...BANDS.map((b) => p.max_wait_h_by_band[b])].map(formatHours);
    return `<tr${cls}><td>${esc(p.policy)}</td>${cells.map((c) => `<td>${c}</td>`).join("")}<td>${p.unblocking_throughput?.toFixed(3) ?? "—"}</td><td>${p.gap_to_bound?.toFixed(2) ?? "—"}</td><td>${p.idle_with_work}</td></tr>`;
  });
  const counts = ps[0] === undefined ? "" : BANDS.map((b) => `P${b}: ${ps[0]?.n_by_band[b] ?? 0}`).join(", ");
  const d = t.durations;
  const problems = t.problems.slice(0, 200).map((p) => `<li><code>${esc(p.source)}:${p.line}</code> ${esc(p.message)} <i>[${p.rule}]</i></li>`);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Bosun replay</title><style>${STYLE}</style></head><body>
<h1>Bosun replay: ${names.map(esc).join(", ")}</h1>
<p>${verdict}</p>
<p class="note">${t.items} items from ${t.sources.map((s) => `<code>${esc(s.file)}</code> (${esc(s.format)})`).join(", ")}, arrivals ${esc(t.first_arrival ?? "—")} to ${esc(t.last_arrival ?? "—")}, ${report.workers} workers per pool (${t.pools.map(esc).join(", ")}). Items per band: ${counts}.</p>
${charts.join("\n")}
<h2>The numbers</h2>
<table><tr><th>policy</th><th>weighted flow h</th><th>mean flow h</th>${BANDS.map((b) => `<th>p95 P${b}</th>`).join("")}${BANDS.map((b) => `<th>worst wait P${b}</th>`).join("")}<th>unblocking /h</th><th>gap to bound</th><th>idle with work</th></tr>
${rows.join("\n")}</table>
<p class="note">Weighted flow time: Σ weight × (completion − arrival) ÷ Σ weight, weight 5 for P0 … 1 for P4. Lower bound: preemptive WSPT on one machine ${report.workers}× faster, each item at its mean busy time plus half its length; no policy can beat it. Idle with work must be 0.</p>
<h2>Durations</h2>
<p>${d.observed} observed, ${d["class-median"]} class median, ${d["lead-time"]} lead time, ${d.default} default. Rule: ${esc(t.duration_rule)}.</p>
<h2>Problems in the trace (${t.problems_total})</h2>
<p>${t.problems_by_rule.skipped} skipped, ${t.problems_by_rule.clamped} clamped, ${t.problems_by_rule.defaulted} defaulted, ${t.problems_by_rule.ignored} ignored${t.cycles.length > 0 ? `; ${t.cycles.length} dependency cycles` : ""}.</p>
<ul>${problems.join("")}</ul>${t.problems_total > 200 ? `<p class="note">… ${t.problems_total - 200} more in <code>--format json</code>.</p>` : ""}
</body></html>
`;
}
