import type { ReplayReport, TraceSummary } from "./build-replay-report.js";
import { formatHours } from "./build-replay-report.js";
import type { ByBand } from "./policy-metrics.js";
import { esc } from "./svg-charts.js";
import type { ProblemRule } from "./trace.js";

const BANDS = ["0", "1", "2", "3", "4"] as const;
/** Problems listed inside the folded section; `--format json` has up to 1,000. */
const LISTED = 200;

const RULES: ReadonlyArray<[ProblemRule, string]> = [
  ["skipped", "the row was left out (no usable created time, bad row, duplicate id)"],
  ["clamped", "a value was brought into range (closes before it opens → 0; priority outside 0..4)"],
  ["defaulted", "a missing value was filled in (no priority → P2, no type → unknown)"],
  ["ignored", "a part of the row was not used (unknown column, blocker not in the trace, edge in a cycle)"],
];

/** `+12%` / `−8%` of a value against the baseline's, or empty when either is missing. */
function change(value: number | null, base: number | null): string {
  if (value === null || base === null || base === 0) return "";
  const pct = Math.round(100 * (value / base - 1));
  return pct === 0 ? " (=)" : ` (${pct > 0 ? "+" : "−"}${Math.abs(pct)}%)`;
}

/** A band table: one row per policy, a cell per band with its change against oldest; worse than +10% in red. */
function bandTable(caption: string, report: ReplayReport, pick: (p: ReplayReport["policies"][number]) => ByBand): string {
  const base = report.policies.find((p) => p.policy === "oldest");
  const n = report.policies[0]?.n_by_band;
  const head = `<tr><th>policy</th>${BANDS.map((b) => `<th>P${b}${n === undefined ? "" : ` (${n[b]})`}</th>`).join("")}</tr>`;
  const rows = report.policies.map((p) => {
    const cells = BANDS.map((b) => {
      const v = pick(p)[b];
      const ref = base === undefined || p === base ? null : pick(base)[b];
      const worse = v !== null && ref !== null && ref > 0 && v > ref * 1.1;
      return `<td${worse ? ' class="worse"' : ""}>${formatHours(v)}${change(v, ref)}</td>`;
    });
    return `<tr><td>${esc(p.policy)}</td>${cells.join("")}</tr>`;
  });
  return `<table><caption>${caption}</caption>${head}\n${rows.join("\n")}</table>`;
}

/** The numbers in three short tables that fit the page: the headline, then p95 and worst wait per band against oldest. */
export function tablesSection(report: ReplayReport): string {
  const ps = report.policies;
  const base = ps.find((p) => p.policy === "oldest") ?? null;
  const best = Math.min(...ps.map((p) => p.weighted_flow_time_h ?? Infinity));
  const head = "<tr><th>policy</th><th>weighted flow h</th><th>vs oldest</th><th>mean flow h</th><th>gap to bound</th><th>unblocking /h</th><th>idle with work</th></tr>";
  const rows = ps.map((p) => {
    const vs = base === null || p === base ? "—" : change(p.weighted_flow_time_h, base.weighted_flow_time_h).replace(/[()\s]/g, "") || "—";
    return `<tr${p.weighted_flow_time_h === best ? ' class="best"' : ""}><td>${esc(p.policy)}</td><td>${formatHours(p.weighted_flow_time_h)}</td><td>${vs}</td><td>${formatHours(p.mean_flow_time_h)}</td><td>${p.gap_to_bound?.toFixed(2) ?? "—"}</td><td>${p.unblocking_throughput?.toFixed(3) ?? "—"}</td><td>${p.idle_with_work}</td></tr>`;
  });
  return `<h2>The numbers</h2>
<table><caption>Headline (bold: lowest weighted flow time)</caption>${head}\n${rows.join("\n")}</table>
${bandTable("p95 flow time per band, hours (items per band; change against oldest, red when more than 10% worse)", report, (p) => p.p95_flow_time_h_by_band)}
${bandTable("Worst wait (ready → start) per band, hours: starvation (change against oldest)", report, (p) => p.max_wait_h_by_band)}
<p class="note">Weighted flow time: Σ weight × (completion − arrival) ÷ Σ weight, weight 5 for P0 … 1 for P4. Gap to bound: weighted flow time ÷ the lower bound. Idle with work counts moments a worker idled while a ready item waited; it must be 0.</p>`;
}

/** The trace's problems: counted per rule in the summary line, listed inside a folded section. */
export function problemsSection(t: TraceSummary): string {
  const byRule = RULES.map(([rule]) => `${t.problems_by_rule[rule]} ${rule}`).join(", ");
  if (t.problems_total === 0) return `<h2>Problems in the trace</h2><p>None: every row was read as written.</p>`;
  const table = RULES.map(([rule, meaning]) => `<tr><td>${rule}</td><td>${t.problems_by_rule[rule]}</td><td style="text-align:left;white-space:normal">${meaning}</td></tr>`).join("");
  const groups = RULES.filter(([rule]) => t.problems.some((p) => p.rule === rule)).map(([rule]) => {
    const items = t.problems.filter((p) => p.rule === rule);
    const shown = items.slice(0, LISTED).map((p) => `<li><code>${esc(p.source)}:${p.line}</code> ${esc(p.message)}</li>`);
    return `<details><summary>${t.problems_by_rule[rule]} ${rule}</summary><ul>${shown.join("")}</ul>${items.length > LISTED ? `<p class="note">… ${items.length - LISTED} more in <code>--format json</code>.</p>` : ""}</details>`;
  });
  return `<h2>Problems in the trace</h2>
<details><summary>${t.problems_total} problems: ${byRule}${t.cycles.length > 0 ? `; ${t.cycles.length} dependency cycles` : ""}. None was dropped silently; open to see each one.</summary>
<table><tr><th>rule</th><th>rows</th><th style="text-align:left">what it means</th></tr>${table}</table>
${groups.join("\n")}
</details>`;
}

/** With `--budget-usd`: what the daily budget completed per policy by the horizon, and how costs were settled. */
export function budgetSection(report: ReplayReport): string {
  const b = report.budget;
  if (b === undefined) return "";
  const rows = b.policies.map((p) => `<tr><td>${esc(p.policy)}</td><td>${p.completed} of ${p.items}</td><td>${formatHours(p.weighted_flow_time_h)}</td><td>$${p.spent_usd.toFixed(2)}</td><td>${p.held_days}</td><td>${p.never_fits}</td></tr>`);
  return `<h2>Under a daily budget of $${b.daily_usd.toFixed(2)}</h2>
<table><caption>By ${esc(readableIso(b.horizon))}, the end of the UTC day the last item completed without a budget</caption><tr><th>policy</th><th>completed</th><th>weighted flow h</th><th>spent</th><th>days held</th><th>never fits</th></tr>
${rows.join("\n")}</table>
<p class="note">An item starts only when its cost fits in what its UTC day has left; the best item that does not fit holds every pool until the next day, as a drain's <code>--budget-usd</code> does. Weighted flow time is over the items completed by then. Costs: ${b.costs_known} recorded, ${b.costs_estimated} estimated — ${esc(b.cost_rule)}.</p>`;
}

const readableIso = (iso: string | null): string => (iso === null ? "—" : `${iso.slice(0, 16).replace("T", " ")} UTC`);
