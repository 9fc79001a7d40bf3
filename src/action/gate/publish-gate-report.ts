import type { GateReport } from "../../core/gate/gate-report.js";
import { batchAnnotations } from "../../core/gate/batch-annotations.js";
import { renderGateMarkdown } from "../../core/gate/render-gate-report.js";
import { renderGateCheckMarker } from "../../core/journal/gate-check-marker.js";
import type { CheckAnnotation, CheckRunWriter } from "../../ports/gate-github.js";

/** The check run's name: branch protection requires it by this name. */
export const GATE_CHECK_NAME = "bosun/gate";

// A check-run summary holds at most 65,535 characters.
const MAX_SUMMARY = 65_000;

/** Every check's annotations in GitHub's terms: failures first, so the first batch is the one to read. */
export function checkAnnotations(report: GateReport): CheckAnnotation[] {
  const level = (result: string, advisory: boolean): CheckAnnotation["annotation_level"] => (advisory ? "notice" : result === "failed" ? "failure" : result === "could-not-check" ? "warning" : "notice");
  const rank = { failure: 0, warning: 1, notice: 2 } as const;
  return report.checks
    .flatMap((c) => c.annotations.map((a) => ({ path: a.path, start_line: a.line ?? 1, end_line: a.line ?? 1, annotation_level: level(c.result, c.advisory === true), message: `${c.check}: ${a.message}`.slice(0, 64_000) })))
    .sort((a, b) => rank[a.annotation_level] - rank[b.annotation_level]);
}

/**
 * What a fail or could-not-check stands for (docs/lifecycle.md): only the acceptance command
 * failing is a retry (the agent may fix it at its next attempt); anything off the brief is a
 * refusal; and the gate's own words, one line, for the item's status.
 */
export function gateFailure(report: GateReport): { failure?: "retry" | "refuse"; reason?: string } {
  if (report.verdict === "pass") return {};
  const counted = report.checks.filter((c) => c.advisory !== true);
  const failing = counted.filter((c) => c.result === (report.verdict === "fail" ? "failed" : "could-not-check"));
  const reason = failing.map((c) => `${c.check}: ${c.evidence}`).join("; ").replace(/\s+/g, " ").slice(0, 500);
  if (report.verdict === "could-not-check") return { reason };
  return { failure: failing.length > 0 && failing.every((c) => c.check === "acceptance") ? "retry" : "refuse", reason };
}

/** Posts one completed check run with the report, its annotations batched 50 a request. */
export async function publishGateReport(writer: CheckRunWriter, headSha: string, report: GateReport, detailsUrl?: string): Promise<number> {
  // The first line is the machine-readable verdict the App turns into a GATE event (fleet metrics).
  const marker = renderGateCheckMarker({ v: 1, item: report.brief?.id ?? null, brief: report.brief?.hash ?? null, verdict: report.verdict, sha: headSha, ...gateFailure(report) });
  const summary = `${marker}\n${renderGateMarkdown(report)}`.slice(0, MAX_SUMMARY);
  const title = report.verdict === "pass" ? "pass" : report.verdict === "fail" ? `fail: ${report.checks.filter((c) => c.result === "failed" && c.advisory !== true).map((c) => c.check).join(", ")}` : "could not check";
  const [first = [], ...rest] = batchAnnotations(checkAnnotations(report));
  // could-not-check is not a pass: it must block a required check like a failure does.
  const id = await writer.createCheckRun({ name: GATE_CHECK_NAME, headSha, conclusion: report.verdict === "pass" ? "success" : "failure", title, summary, annotations: first, ...(detailsUrl === undefined ? {} : { detailsUrl }) });
  for (const batch of rest) await writer.addAnnotations(id, { title, summary, annotations: batch });
  return id;
}
