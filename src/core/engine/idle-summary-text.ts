import type { FinalStatus } from "./engine-loop.js";

/** The IDLE event's summary: how many items ended in each status (`ok=3 needs-human=1`). */
export function idleSummaryText(items: ReadonlyMap<string, FinalStatus>): string {
  const counts = new Map<string, number>();
  for (const f of items.values()) counts.set(f.status, (counts.get(f.status) ?? 0) + 1);
  return [...counts].map(([k, n]) => `${k}=${n}`).join(" ") || "nothing queued";
}
