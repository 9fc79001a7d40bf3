import type { CheckOutcome } from "./check-result.js";
import type { GateReport } from "./gate-report.js";

const ICON: Readonly<Record<CheckOutcome, string>> = { passed: "✅ passed", failed: "❌ failed", "could-not-check": "⚠️ could not check" };

/** The job summary / check-run summary: a table of check, result and evidence, then the verdict. */
export function renderGateMarkdown(report: GateReport): string {
  const rows = report.checks.map((c) => `| ${c.check}${c.advisory === true ? " (advisory)" : ""} | ${ICON[c.result]} | ${cell(c.evidence)} |`);
  const brief = report.brief === null ? "no brief" : `brief \`${report.brief.id}\` (${report.brief.source}, ${report.brief.hash.slice(0, 19)})`;
  return [
    `### bosun/gate: ${report.verdict}`,
    "",
    brief + (report.needs_human ? " · **a human must approve: sensitive paths changed**" : ""),
    "",
    "| check | result | evidence |",
    "|---|---|---|",
    ...rows,
    "",
  ].join("\n");
}

/** Plain lines for a terminal: one per check, then the verdict. */
export function renderGateText(report: GateReport): string {
  const lines = report.checks.map((c) => `${c.check.padEnd(10)} ${c.result.padEnd(15)} ${c.evidence.split("\n").join("\n" + " ".repeat(27))}`);
  const offBrief = report.checks.flatMap((c) => c.annotations.map((a) => `  ${a.path}: ${a.message}`));
  return [...lines, ...(offBrief.length > 0 ? ["", ...offBrief] : []), "", `verdict: ${report.verdict}${report.needs_human ? " (needs a human)" : ""}`, ""].join("\n");
}

/** Evidence inside a markdown table cell: pipes escaped, newlines as <br>, and bounded. */
function cell(text: string): string {
  const bounded = text.length > 1500 ? `${text.slice(0, 1500)}…` : text;
  return bounded.replace(/\|/g, "\\|").replace(/\r?\n/g, "<br>");
}
