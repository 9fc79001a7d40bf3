/**
 * The dashboard's Setup section as markdown lines: each problem `bosun doctor` finds with its fix,
 * and the checks the App cannot make itself. Deterministic, so an unchanged setup rewrites nothing.
 */
import type { SetupSection } from "./setup-section.js";

const MAX_PROBLEMS = 20;

/** Inert markdown: no markup, HTML or mentions get through (workflow names and config text come from the repository). */
function inert(text: string): string {
  return text
    .replace(/[\r\n]+/g, " ")
    .replace(/[\\`*_{}[\]()<>#+!|~]/g, (c) => `\\${c}`)
    .replace(/@/g, "@\u200b")
    .slice(0, 500);
}

/** No lines at all before the setup was first read. */
export function renderSetupSection(setup: SetupSection | undefined): string[] {
  if (setup === undefined) return [];
  const doctor = `npx bosun doctor --repo ${setup.repo}`;
  const out = ["## Setup", ""];
  if (setup.problems.length === 0) out.push("Every setup check the App can make holds.", "");
  else {
    out.push(`\`bosun doctor\` finds ${setup.problems.length} problem${setup.problems.length === 1 ? "" : "s"} in this repository's setup; each one voids a guarantee until it is fixed:`, "");
    for (const p of setup.problems.slice(0, MAX_PROBLEMS)) out.push(`- **${inert(p.check)}**${p.subject === undefined ? "" : ` (${inert(p.subject)})`}: ${inert(p.message)}. Fix: ${inert(p.fix)}`);
    if (setup.problems.length > MAX_PROBLEMS) out.push(`- …and ${setup.problems.length - MAX_PROBLEMS} more`);
    out.push("");
  }
  if (setup.couldNotCheck.length > 0) out.push(`Not checked here (the App's permissions do not reach them): ${setup.couldNotCheck.map((c) => `\`${c.replace(/`/g, "'")}\``).join(", ")}. An admin checks them with \`${doctor}\`.`, "");
  return out;
}
