import { forEachLine } from "./for-each-line.js";
import { readItemFields } from "./read-item-fields.js";
import type { ImportResult, RawTraceItem, TraceProblem } from "./trace.js";

const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

/** The `blocks` edges of a beads issue: ids it depends on. Other edge types (parent-child, related) do not block. */
function blockers(id: string, deps: unknown): string[] {
  if (!Array.isArray(deps)) return [];
  const out: string[] = [];
  for (const d of deps as unknown[]) {
    if (typeof d !== "object" || d === null) continue;
    const e = d as Record<string, unknown>;
    const from = str(e["issue_id"]) ?? id;
    const to = str(e["depends_on_id"]);
    if (to !== undefined && from === id && (e["type"] ?? "blocks") === "blocks") out.push(to);
  }
  return out;
}

/**
 * Reads beads' `.beads/issues.jsonl` (one issue a line: id, priority, issue_type, created_at,
 * closed_at, dependencies). Also reads `claimed_at`, `pool` and `due` when present — the fields
 * `bosun trace github` adds — so a claimed -> closed span becomes an observed duration.
 */
export function importBeadsJsonl(text: string, source: string): ImportResult {
  const items: RawTraceItem[] = [];
  const problems: TraceProblem[] = [];
  let lines = 0;
  forEachLine(text, (raw, line) => {
    lines++;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      problems.push({ source, line, message: "not JSON", rule: "skipped" });
      return;
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      problems.push({ source, line, message: "not a JSON object", rule: "skipped" });
      return;
    }
    const o = value as Record<string, unknown>;
    const id = str(o["id"]) ?? "(no id)";
    if (o["status"] === "tombstone" || o["deleted_at"] !== undefined && o["deleted_at"] !== null) {
      problems.push({ source, line, message: `${id}: deleted issue`, rule: "skipped" });
      return;
    }
    const priority = o["priority"];
    const item = readItemFields(
      {
        id: str(o["id"]),
        created: str(o["created_at"]),
        claimed: str(o["claimed_at"]),
        closed: str(o["closed_at"]),
        priority: typeof priority === "number" || typeof priority === "string" ? priority : undefined,
        kind: str(o["issue_type"]),
        pool: str(o["pool"]),
        due: str(o["due"]) ?? str(o["due_at"]),
        blockedBy: blockers(id, o["dependencies"]),
      },
      source,
      line,
      problems,
    );
    if (item !== undefined) items.push(item);
  });
  if (lines === 0) problems.push({ source, line: 0, message: "empty file: no items", rule: "skipped" });
  return { items, problems, source, format: "beads-jsonl" };
}
