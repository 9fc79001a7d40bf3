import type { Disposition, Stop } from "../../core/stop/stop.js";
import { describeStop } from "../../core/stop/stop.js";
import type { Evidence } from "../../core/journal/journal-event.js";

import { LANDING_MARKER } from "../../core/scheduler/landing-marker.js";

/**
 * The snapshot comment with the item's latest landing below it (one Bosun comment per item,
 * edited rather than added to: an edit is not a content-creating request).
 */
export function renderLanding(snapshotBody: string, landing: { epoch: number; stop: Stop; disposition: Disposition; at: number; evidence?: Evidence; by: string }): string {
  const base = snapshotBody.split(LANDING_MARKER)[0]?.trimEnd() ?? snapshotBody;
  const lines = [
    base,
    "",
    LANDING_MARKER,
    `### Landed: ${landing.disposition === "ok" ? "ok" : landing.disposition}`,
    "",
    `| epoch | stop | disposition | at | by |`,
    `|---|---|---|---|---|`,
    `| ${landing.epoch} | ${escapeCell(describeStop(landing.stop))} | ${landing.disposition} | ${new Date(landing.at).toISOString()} | ${escapeCell(landing.by)} |`,
  ];
  if (landing.evidence !== undefined) {
    lines.push("", `Evidence: \`${escapeCell(landing.evidence.command)}\` exited ${landing.evidence.exit ?? "by signal"}`, "", "```text", ...landing.evidence.lines.map((l) => l.replace(/```/g, "ˋˋˋ")), "```");
  }
  return `${lines.join("\n")}\n`;
}

const escapeCell = (text: string): string => text.replace(/\|/g, "\\|").replace(/\n/g, " ");
