import type { GroupCost } from "./money-metrics.js";
import type { MoneyReport } from "./money-report.js";

const usd = (x: number): string => `$${x.toFixed(2)}`;
const percent = (x: number | null): string => (x === null ? "—" : `${(x * 100).toFixed(1)}%`);
/** Cells padded to their widths: the first `left` columns are words (left-aligned), the rest figures. */
const row = (cells: readonly string[], widths: readonly number[], left = 1): string =>
  cells.map((c, i) => (i < left ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join("  ").trimEnd();
const OUTCOMES = [
  ["accepted", "accepted"],
  ["not_accepted", "not accepted"],
  ["refused", "refused"],
  ["failed", "failed"],
] as const;

/** The money lines of `bosun stats` as plain text (docs/stats.md, "Money"). */
export function renderMoneyReport(m: MoneyReport): string {
  const out: string[] = [];
  out.push(`Money against the caps (now ${m.now}; spent and reserved as the state folder's ledger counts them)`);
  const rec = m.caps_recorded;
  if (rec === null) out.push("  no caps recorded: a drain run with --budget-usd or --item-usd records the ones it applies");
  else {
    const set = m.ledger.caps.length === 0 ? "no cap over a day or week" : m.ledger.caps.map((c) => `${c.cap} ${usd(c.cap_usd)} a ${c.window === "day" ? "UTC day" : "week"}${c.pool === undefined ? "" : ` (pool ${c.pool})`}`).join(", ");
    out.push(`  caps as ${rec.holder} set them at ${rec.at}: ${set}${rec.item_usd === undefined ? "" : `; an item without budget.usd reserves ${usd(rec.item_usd)}`}`);
  }
  if (!m.ledger.found) out.push("  no spend ledger yet: nothing was reserved under a budget in this state folder");
  const w = [10, 10, 18, 9, 9, 9, 9, 7];
  out.push(`  ${row(["window", "from", "cap", "limit", "spent", "reserved", "left", "used"], w, 3)}`);
  for (const win of m.ledger.windows) {
    const label = win.window === "day" ? "today" : "this week";
    const caps = m.ledger.caps.filter((c) => c.window === win.window);
    if (caps.length === 0) out.push(`  ${row([label, win.start.slice(0, 10), "(no cap)", "", usd(win.spent_usd), usd(win.reserved_usd), "", ""], w, 3)}`);
    for (const c of caps) out.push(`  ${row([label, c.start.slice(0, 10), c.pool === undefined ? c.cap : `${c.cap} (${c.pool})`, usd(c.cap_usd), usd(c.spent_usd), usd(c.reserved_usd), usd(c.left_usd), percent(c.used_share)], w, 3)}`);
  }
  out.push("");

  const s = m.spend;
  const notes = [s.runs_at_reservation > 0 ? `${s.runs_at_reservation} reported no cost and count at their reservation` : "", s.runs_without_cost > 0 ? `${s.runs_without_cost} with no cost known are left out` : ""].filter((x) => x !== "");
  out.push(`Where the money went (${s.runs} runs, ${usd(s.usd)}${notes.length === 0 ? "" : `; ${notes.join(", ")}`})`);
  const ow = [14, 6, 9, 7];
  for (const [key, label] of OUTCOMES) {
    const o = s.by_outcome[key];
    out.push(`  ${row([label, String(o.runs), usd(o.usd), percent(o.share)], ow)}`);
  }
  out.push("");

  out.push("Cost per accepted task in usd (every run's spend, failed and unaccepted ones included, ÷ tasks accepted)");
  const gw = [24, 6, 9, 9, 13];
  const groups: Array<[string, readonly GroupCost[]]> = [
    ["task class", m.per_accepted_task.by_class],
    ["agent", m.per_accepted_task.by_agent],
    ["tier", m.per_accepted_task.by_tier],
  ];
  for (const [name, list] of groups) {
    out.push(`  ${row([`by ${name}`, "runs", "spent", "accepted", "per accepted"], gw)}`);
    for (const g of list) out.push(`  ${row([`  ${g.key}`, String(g.runs), usd(g.usd), String(g.accepted_tasks), g.per_accepted_task_usd === null ? "—" : usd(g.per_accepted_task_usd)], gw)}`);
  }
  return `${out.join("\n")}\n`;
}
