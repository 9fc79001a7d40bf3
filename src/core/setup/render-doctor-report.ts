/** `bosun doctor`'s report as text: one line per finding, its fix under it, a summary last. */
import type { SetupFinding } from "./setup-finding.js";

const TAG = { ok: "ok", problem: "PROBLEM", "could-not-check": "COULD NOT CHECK" } as const;

export function renderDoctorReport(repo: string, defaultBranch: string, findings: readonly SetupFinding[]): string {
  const lines = [`bosun doctor ${repo} (default branch ${defaultBranch})`, ""];
  for (const f of findings) {
    lines.push(`${TAG[f.status].padEnd(15)} ${f.check.padEnd(19)} ${f.message}`);
    if (f.fix !== undefined && f.status !== "ok") lines.push(`${"".padEnd(35)} fix: ${f.fix}`);
  }
  const count = (s: SetupFinding["status"]) => findings.filter((f) => f.status === s).length;
  const problems = count("problem");
  const unknown = count("could-not-check");
  lines.push("", problems + unknown === 0 ? `Every check holds (${findings.length}).` : `${problems} problem${problems === 1 ? "" : "s"}, ${unknown} could not be checked, ${count("ok")} ok.`, "");
  return lines.join("\n");
}
