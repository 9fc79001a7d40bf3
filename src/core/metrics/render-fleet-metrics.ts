import type { FleetMetrics } from "./fleet-metrics.js";
import type { Share } from "./stop-mix.js";

const percent = (x: number | null): string => (x === null ? "—" : `${(x * 100).toFixed(1)}%`);
const row = (cells: readonly string[], widths: readonly number[]): string =>
  cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join("  ").trimEnd();

/** The metrics as the plain-text report `bosun stats` prints by default. */
export function renderFleetMetrics(m: FleetMetrics): string {
  const out: string[] = [];
  out.push(`Window: ${m.window.since ?? "start of journal"} .. ${m.window.until ?? "end of journal"} (${m.events} events)`, "");

  const mix = m.stop_mix;
  out.push(`Stop reasons (${mix.runs} runs${mix.without_stop > 0 ? `; ${mix.without_stop} landed without a stop, not counted` : ""})`);
  const w = [24, 6, 7];
  const share = (label: string, s: Share) => out.push(`  ${row([label, String(s.count), percent(s.share)], w)}`);
  share("done", mix.kinds.done);
  share("out_of_budget", mix.kinds.out_of_budget);
  for (const [limit, s] of Object.entries(mix.limits)) if (s.count > 0) share(`  ${limit}`, s);
  share("blocked", mix.kinds.blocked);
  share("failed", mix.kinds.failed);
  out.push("");

  out.push("Gate rejection rate by task class (fail ÷ (pass + fail); could-not-check apart)");
  const gw = [20, 6, 5, 5, 15, 9];
  out.push(`  ${row(["class", "gates", "pass", "fail", "could-not-check", "rejected"], gw)}`);
  for (const g of m.gate_rejection_by_class) {
    out.push(`  ${row([g.class, String(g.gates), String(g.pass), String(g.fail), String(g.could_not_check), percent(g.rejection_rate)], gw)}`);
  }
  out.push("");

  const c = m.cost;
  out.push(`Cost per accepted task (${c.accepted_tasks} accepted — landed ok and gate passed — from ${c.runs} runs)`);
  if (c.landed_ok_not_gated > 0 || c.landed_ok_gate_not_passed > 0) {
    out.push(`  not accepted: ${c.landed_ok_not_gated} landed ok with no gate verdict yet, ${c.landed_ok_gate_not_passed} landed ok but the gate did not pass`);
  }
  const cw = [14, 14, 14, 14];
  out.push(`  ${row(["", "total", "per accepted", "runs missing"], cw)}`);
  const units = [
    ["tokens", "tokens", (x: number) => Math.round(x).toLocaleString("en-US")],
    ["usd", "usd", (x: number) => x.toFixed(2)],
    ["wall_clock_s", "wall clock s", (x: number) => x.toFixed(0)],
  ] as const;
  for (const [unit, label, fmt] of units) {
    const per = c.per_accepted_task[unit];
    out.push(`  ${row([label, fmt(c.total[unit]), per === null ? "—" : fmt(per), String(c.runs_missing[unit])], cw)}`);
  }
  return `${out.join("\n")}\n`;
}
