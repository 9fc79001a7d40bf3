import type { ReplayReport } from "./build-replay-report.js";
import { formatHours } from "./build-replay-report.js";
import { formatDate, readableTime } from "./format-date.js";
import { identicalPolicies } from "./identical-policies.js";
import type { QueueSeries } from "./queue-length-series.js";
import { budgetSection, problemsSection, tablesSection } from "./replay-html-sections.js";
import { esc, groupedBars, horizontalBars, lineChart } from "./svg-charts.js";
import { HOUR_MS } from "./trace.js";

export type { QueueSeries } from "./queue-length-series.js";

const BANDS = ["0", "1", "2", "3", "4"] as const;
const STYLE = `body{font:14px/1.45 system-ui,sans-serif;max-width:800px;margin:2em auto;color:#222;padding:0 1em}
h1{font-size:1.4em}h2{font-size:1.1em;margin-top:2em}h3{font-size:1em}svg{width:100%;height:auto;font-size:11px;margin:.5em 0}
.title{font-weight:600;font-size:13px}.small{font-size:10px}.grid{stroke:#ddd}.marker{stroke:#222;stroke-dasharray:4 3}
table{border-collapse:collapse;font-size:13px;margin:.5em 0;width:100%}td,th{padding:3px 6px;text-align:right;border-bottom:1px solid #eee;white-space:nowrap}
td:first-child,th:first-child{text-align:left}th{font-weight:600}.best{font-weight:700}.worse{color:#b00}.note{color:#555}code{font-size:12px}
caption{text-align:left;font-weight:600;padding:.3em 0}details{margin:.5em 0}summary{cursor:pointer}`;

/** W. E. Smith's 1956 paper, the rule behind the bound (and the `smith` policy). */
const SMITH_1956 = `W. E. Smith, “Various optimizers for single-stage production”, <i>Naval Research Logistics Quarterly</i> 3 (1956) 59–66, <a href="https://doi.org/10.1002/nav.3800030106">doi:10.1002/nav.3800030106</a>`;

/**
 * A self-contained HTML report read at a glance: the verdict first (which policy has the lowest
 * weighted flow time and by how much against the baseline `oldest`, and which policies could
 * not be told apart), then charts as inline SVG with direct labels or legends — never a number
 * on every bar — then short tables against `oldest`, the bound in plain words, and the trace's
 * problems folded and counted per rule. No scripts, no external assets.
 */
export function renderReplayHtml(report: ReplayReport, queues: readonly QueueSeries[]): string {
  const ps = report.policies;
  const t = report.trace;
  const same = identicalPolicies(ps);
  const ranked = ps.filter((p) => p.weighted_flow_time_h !== null).sort((a, b) => (a.weighted_flow_time_h as number) - (b.weighted_flow_time_h as number));
  const best = ranked[0];
  const base = ps.find((p) => p.policy === "oldest");
  let verdict = "No policy completed any item.";
  if (best !== undefined) {
    verdict = `<b>${esc(best.policy)}</b> has the lowest weighted flow time: ${formatHours(best.weighted_flow_time_h)} h${best.gap_to_bound === null ? "" : `, ${best.gap_to_bound.toFixed(2)}× the lower bound`}`;
    if (base !== undefined && base !== best && base.weighted_flow_time_h !== null && base.weighted_flow_time_h > 0) {
      verdict += `, ${(100 * (1 - (best.weighted_flow_time_h as number) / base.weighted_flow_time_h)).toFixed(0)}% below the baseline <b>oldest</b>`;
    }
    verdict += ". Check each band's p95 and worst wait against oldest's below before adopting it: a lower mean bought by starving a band is not a win (DESIGN.md principle 8).";
  }
  const sameNote =
    same.length === 0
      ? ""
      : `<p>${same.map((g) => `${g.map((n) => `<b>${esc(n)}</b>`).join(" and ")} gave identical results on this trace (every figure equal): their orders never differed in a way that changed when an item started.`).join(" ")}</p>`;
  const bound = ps[0]?.lower_bound_weighted_flow_time_h ?? null;
  const q0 = queues[0];
  const charts = [
    horizontalBars("Weighted flow time per policy (dashed: the lower bound)", "hours", ps.map((p) => ({ name: p.policy, value: p.weighted_flow_time_h })), bound === null ? undefined : { label: "lower bound", value: bound }),
    groupedBars("p95 flow time per band", "hours", BANDS.map((b) => `P${b}`), ps.map((p) => ({ name: p.policy, values: BANDS.map((b) => p.p95_flow_time_h_by_band[b]) }))),
    groupedBars("Worst wait (ready → start) per band: starvation", "hours", BANDS.map((b) => `P${b}`), ps.map((p) => ({ name: p.policy, values: BANDS.map((b) => p.max_wait_h_by_band[b]) }))),
    lineChart("Ready items waiting over time (mean per interval)", "items", q0?.t0 ?? 0, q0?.bucketMs ?? HOUR_MS, queues.map((q) => ({ name: q.policy, values: q.means }))),
  ];
  const counts = ps[0] === undefined ? "" : BANDS.map((b) => `P${b}: ${ps[0]?.n_by_band[b] ?? 0}`).join(", ");
  const d = t.durations;
  const chartFrom = q0 === undefined ? "" : ` The queue chart starts at ${`${formatDate(q0.t0, "minute")} UTC`}, leaving out the earliest 5% of arrivals so a few early stragglers do not squeeze the rest into a sliver.`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Bosun replay</title><style>${STYLE}</style></head><body>
<h1>Bosun replay: ${ps.map((p) => esc(p.policy)).join(", ")}</h1>
<p>${verdict}</p>
${sameNote}
<p class="note">${t.items} items from ${t.sources.map((s) => `<code>${esc(s.file)}</code> (${esc(s.format)})`).join(", ")}, arriving from ${readableTime(t.first_arrival)} to ${readableTime(t.last_arrival)}; ${report.workers} workers per pool (${t.pools.map(esc).join(", ")}). Items per band: ${counts}. All times UTC.</p>
${charts.join("\n")}
<p class="note">Each bar's exact value is in its tooltip and in the tables below.${chartFrom}</p>
${tablesSection(report)}
${budgetSection(report)}
<h2>The lower bound, in plain words</h2>
<p>No policy can do better than <b>${formatHours(bound)} h</b> of weighted flow time on this trace with ${report.workers} workers per pool. The number comes from an easier problem that can be solved exactly: imagine the ${report.workers} workers merged into one worker ${report.workers} times as fast, allowed to set a task aside the moment a more urgent one arrives, always working on the waiting task with the most priority weight per hour of work left (Smith's rule: ${SMITH_1956}). Every task is then counted at the average moment it is being worked on plus half its length, which is when a task run start to finish on one real worker completes. Anything real workers can do, that imagined worker can do at least as well, so this is a floor, not a target. The report also uses the plain fact that no task finishes sooner than its own length after it arrives, and shows the larger of the two floors. A large gap to the bound means room to gain, or a floor that is loose because the fleet is overloaded.</p>
<h2>Durations</h2>
<p>${d.observed} observed, ${d["class-median"]} class median, ${d["lead-time"]} lead time, ${d.default} default. Rule: ${esc(t.duration_rule)}.</p>
${problemsSection(t)}
</body></html>
`;
}
