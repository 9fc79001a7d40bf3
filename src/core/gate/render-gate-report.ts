import type { CheckOutcome } from "./check-result.js";
import type { GateReport } from "./gate-report.js";

const ICON: Readonly<Record<CheckOutcome, string>> = { passed: "✅ passed", failed: "❌ failed", "could-not-check": "⚠️ could not check" };

/** The job summary / check-run summary: a table of check, result and evidence, then the verdict. */
export function renderGateMarkdown(report: GateReport): string {
  const rows = report.checks.map((c) => `| ${c.check}${c.advisory === true ? " (advisory)" : ""} | ${ICON[c.result]} | ${cell(firstLine(c.evidence))} |`);
  // Evidence of more than one line (the acceptance command's output) goes below the table, as code.
  const details = report.checks.filter((c) => c.evidence.includes("\n")).flatMap((c) => ["", `<details><summary>${c.check}: full evidence</summary>`, "", fenced(c.evidence), "", "</details>"]);
  const brief = report.brief === null ? "no brief" : `brief \`${report.brief.id}\` (${report.brief.source}, ${report.brief.hash.slice(0, 19)})`;
  return [
    `### bosun/gate: ${report.verdict}`,
    "",
    brief + (report.needs_human ? " · **a human must approve: sensitive paths changed**" : ""),
    "",
    "| check | result | evidence |",
    "|---|---|---|",
    ...rows,
    ...details,
    "",
  ].join("\n");
}

/** Plain lines for a terminal: one per check, then the verdict. */
export function renderGateText(report: GateReport): string {
  const lines = report.checks.map((c) => `${c.check.padEnd(10)} ${c.result.padEnd(15)} ${c.evidence.split("\n").join("\n" + " ".repeat(27))}`);
  const offBrief = report.checks.flatMap((c) => c.annotations.map((a) => `  ${a.path}: ${a.message}`));
  return [...lines, ...(offBrief.length > 0 ? ["", ...offBrief] : []), "", `verdict: ${report.verdict}${report.needs_human ? " (needs a human)" : ""}`, ""].join("\n");
}

/** Evidence inside a markdown table cell: markup escaped (a path's `**` is not bold), pipes too, and bounded. */
function cell(text: string): string {
  const bounded = text.length > 1500 ? `${text.slice(0, 1500)}…` : text;
  return bounded.replace(/[\\`*_~<>[\]|]/g, (c) => `\\${c}`).replace(/\r?\n/g, " ");
}

/** The first line, with a pointer to the rest when there is more. */
function firstLine(text: string): string {
  const end = text.indexOf("\n");
  return end === -1 ? text : `${text.slice(0, end)} (full evidence below)`;
}

/** Text as a fenced block it cannot close early: the fence is longer than any backtick run inside. */
function fenced(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(Math.max(3, longest + 1));
  const bounded = text.length > 20_000 ? `${text.slice(0, 20_000)}\n…` : text;
  return `${fence}text\n${bounded}\n${fence}`;
}
