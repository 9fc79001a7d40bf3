import type { VerifyVerdict } from "./converge.js";
import type { ProbeObservation } from "./probe-outcome.js";

/** What was probed, as shown to people (already redacted). */
export interface VerifyTarget {
  /** A redacted URL or a command line. */
  readonly target: string;
  readonly environment?: string;
}

/** One line per verdict, the last line the CLI prints: `verified: ...`, `mismatch: ...`, `unreachable: ...`. */
export function verdictLine(verdict: VerifyVerdict, target: VerifyTarget): string {
  const e = verdict.evidence;
  const tally = `${e.probes} probe(s) in ${seconds(e.elapsedMs)}`;
  switch (verdict.kind) {
    case "verified":
      return `verified: ${target.target} ${verdict.reason} (${tally})`;
    case "mismatch":
      return `mismatch: ${target.target} reports ${verdict.reported}, expected ${e.expected}${mismatchDetail(verdict.reason, verdict.reported, e.expected)} (${tally})`;
    case "unreachable":
      return `unreachable: ${target.target}: ${verdict.reason} (${tally})`;
  }
}

/** What a mismatch's reason adds to `reports X, expected Y`, without saying that again. */
function mismatchDetail(reason: string, reported: string, expected: string): string {
  const said = `the target reports ${reported}, expected ${expected}`;
  return reason.startsWith(said) ? reason.slice(said.length) : `: ${reason}`;
}

/** A commit or deployment status description: GitHub caps it at 140 characters. */
export function verdictDescription(verdict: VerifyVerdict): string {
  const text =
    verdict.kind === "verified"
      ? `bosun: verified ${short(verdict.value)} on ${verdict.evidence.consecutive} consecutive probes`
      : verdict.kind === "mismatch"
        ? `bosun: ${verdict.flapping ? "flapping" : "mismatch"}: reports ${short(verdict.reported)}, expected ${short(verdict.evidence.expected)}`
        : `bosun: unreachable: ${verdict.reason}`;
  return text.length <= 140 ? text : `${text.slice(0, 139)}…`;
}

/** The evidence as markdown, for a job summary or an issue comment. */
export function verdictMarkdown(verdict: VerifyVerdict, target: VerifyTarget): string {
  const e = verdict.evidence;
  const icon = verdict.kind === "verified" ? "✅" : verdict.kind === "mismatch" ? "❌" : "⚠️";
  const where = target.environment === undefined ? "" : ` (${cell(target.environment)})`;
  const lines = [
    `### ${icon} Deployment ${verdict.kind}${where}`,
    "",
    `- target: \`${cell(target.target)}\``,
    `- expected: \`${cell(e.expected)}\` on ${e.consecutive} consecutive probe(s)`,
    `- verdict: **${verdict.kind}** — ${cell(verdict.reason)}`,
    `- probes: ${e.probes} (${e.answered} reported a version, best streak ${e.bestStreak}) in ${seconds(e.elapsedMs)}`,
  ];
  if (e.seen.length > 0) {
    lines.push(`- versions seen: ${e.seen.map((s) => `\`${cell(s.value)}\` ×${s.count}`).join(", ")}`);
  }
  lines.push("", "| # | at (UTC) | took | result |", "|---|---|---|---|");
  const first = e.probes - e.recent.length + 1;
  e.recent.forEach((obs, i) => lines.push(probeRow(first + i, obs)));
  return `${lines.join("\n")}\n`;
}

function probeRow(n: number, obs: ProbeObservation): string {
  const result = obs.kind === "value" ? `\`${cell(obs.value)}\` (${cell(obs.detail)})` : `no version: ${cell(obs.reason)}`;
  return `| ${n} | ${new Date(obs.at).toISOString()} | ${obs.durationMs} ms | ${result} |`;
}

function cell(text: string): string {
  return text.replaceAll("|", "\\|").replaceAll("`", "'").replaceAll(/\r?\n/g, " ");
}

function short(value: string): string {
  return /^[0-9a-f]{40}$/i.test(value) ? value.slice(0, 12) : value.length > 40 ? `${value.slice(0, 39)}…` : value;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)}s`;
}
