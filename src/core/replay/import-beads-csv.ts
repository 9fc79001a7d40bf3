import { parseCsv } from "./parse-csv.js";
import { readItemFields } from "./read-item-fields.js";
import type { ImportResult, RawTraceItem, TraceProblem } from "./trace.js";

/** Columns the importer reads. `pool` and `due` are not in beads' files but are honoured when present. */
const USED = ["id", "created_at", "closed_at", "priority", "issue_type", "first_claim_at", "blocks_on", "pool", "due"] as const;
/** Columns of the two beads formats that a replay has no use for: known, so not reported. */
const KNOWN_UNUSED = new Set([
  "priorities_seen", "status_last", "created_by", "first_assignee", "n_blocks_deps", "parent", "labels",
  "title", "claim_status", "claimant", "claimed_by_actor", "n_claims", "closed_by", "close_reason", "reopens", "created_event",
]);

/**
 * Reads a beads CSV trace: the work trace (created -> closed, `blocks_on` edges) or the events-claim
 * trace (adds `first_claim_at`, so claim -> close is an observed duration). Every row not taken
 * as written becomes a problem with its line and rule; an unknown column is reported, not fatal.
 */
export function importBeadsCsv(text: string, source: string): ImportResult {
  const items: RawTraceItem[] = [];
  const problems: TraceProblem[] = [];
  let header: string[] | undefined;
  let col: Partial<Record<(typeof USED)[number], number>> = {};
  let fatal = false;
  parseCsv(text, ({ line, cells }) => {
    if (fatal) return;
    if (header === undefined) {
      header = cells.map((c) => c.trim().replace(/^\uFEFF/, ""));
      col = {};
      header.forEach((name, i) => {
        if ((USED as readonly string[]).includes(name)) col[name as (typeof USED)[number]] = i;
        else if (!KNOWN_UNUSED.has(name)) problems.push({ source, line, message: `unknown column '${name}'`, rule: "ignored" });
      });
      for (const need of ["id", "created_at"] as const) {
        if (col[need] === undefined) {
          problems.push({ source, line, message: `no '${need}' column: not a beads trace, file skipped`, rule: "skipped" });
          fatal = true;
        }
      }
      return;
    }
    if (cells.length !== header.length) {
      problems.push({ source, line, message: `${cells.length} cells where the header has ${header.length}`, rule: "skipped" });
      return;
    }
    const cell = (name: (typeof USED)[number]): string | undefined => {
      const i = col[name];
      return i === undefined ? undefined : cells[i];
    };
    const blocks = cell("blocks_on");
    const item = readItemFields(
      {
        id: cell("id"),
        created: cell("created_at"),
        claimed: cell("first_claim_at"),
        closed: cell("closed_at"),
        priority: cell("priority"),
        kind: cell("issue_type"),
        pool: cell("pool"),
        due: cell("due"),
        blockedBy: blocks === undefined || blocks === "" ? [] : blocks.split("|"),
      },
      source,
      line,
      problems,
    );
    if (item !== undefined) items.push(item);
  }, (bad) => {
    if (!fatal) problems.push({ source, line: bad.line, message: bad.message, rule: "skipped" });
  });
  if (header === undefined) problems.push({ source, line: 0, message: "empty file: no header and no items", rule: "skipped" });
  const format = col.first_claim_at === undefined ? "beads-work-csv" : "beads-events-claim-csv";
  return { items, problems, source, format };
}
