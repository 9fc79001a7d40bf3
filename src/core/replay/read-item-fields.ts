import type { Band } from "../brief/brief.js";
import { parseTraceTime } from "./parse-trace-time.js";
import type { RawTraceItem, TraceProblem } from "./trace.js";

/** The cells of one item as a trace gives them, before validation; absent or "" means missing. */
export interface ItemFields {
  readonly id?: string | undefined;
  readonly created?: string | undefined;
  readonly claimed?: string | undefined;
  readonly closed?: string | undefined;
  readonly priority?: string | number | undefined;
  readonly kind?: string | undefined;
  readonly pool?: string | undefined;
  readonly due?: string | undefined;
  readonly blockedBy?: readonly string[] | undefined;
}

export const DEFAULT_BAND: Band = 2;
export const DEFAULT_POOL = "default";
export const UNKNOWN_KIND = "unknown";

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
const NONE: readonly string[] = [];

const present = (s: string | undefined): s is string => s !== undefined && s.trim() !== "";

/**
 * Validates one item's fields into a raw trace item, pushing a problem (with its line and the
 * rule applied) for everything not taken as written. Returns undefined when the row is skipped.
 */
export function readItemFields(f: ItemFields, source: string, line: number, problems: TraceProblem[]): RawTraceItem | undefined {
  const problem = (message: string, rule: TraceProblem["rule"]): void => {
    problems.push({ source, line, message, rule });
  };
  if (!present(f.id)) {
    problem("no id", "skipped");
    return undefined;
  }
  const id = f.id.trim();
  const claimed = present(f.claimed) ? parseTraceTime(f.claimed) : undefined;
  if (present(f.claimed) && claimed === undefined) problem(`${id}: bad date in claimed '${f.claimed}': read as never claimed`, "defaulted");
  let arrival: number;
  if (present(f.created)) {
    const t = parseTraceTime(f.created);
    if (t === undefined) {
      problem(`${id}: bad date in created '${f.created}'`, "skipped");
      return undefined;
    }
    arrival = t;
  } else if (claimed !== undefined) {
    problem(`${id}: no created time: arrival taken as the first claim`, "defaulted");
    arrival = claimed;
  } else {
    problem(`${id}: no created time and no claim: arrival unknown`, "skipped");
    return undefined;
  }
  const defaults: string[] = [];
  let band: Band = DEFAULT_BAND;
  const rawPriority = typeof f.priority === "number" ? String(f.priority) : f.priority;
  if (!present(rawPriority)) defaults.push(`no priority: P${DEFAULT_BAND}`);
  else {
    const p = Number(rawPriority);
    if (!Number.isFinite(p)) defaults.push(`bad priority '${rawPriority}': P${DEFAULT_BAND}`);
    else {
      const clamped = Math.min(4, Math.max(0, Math.round(p)));
      if (clamped !== p) problem(`${id}: priority ${rawPriority} outside 0..4: P${clamped}`, "clamped");
      band = clamped as Band;
    }
  }
  const kind = present(f.kind) ? f.kind.trim() : UNKNOWN_KIND;
  if (!present(f.kind)) defaults.push(`no type: '${UNKNOWN_KIND}'`);
  let due: number | undefined;
  if (present(f.due)) {
    due = parseTraceTime(f.due);
    if (due === undefined) defaults.push(`bad due date '${f.due}': no due`);
  }
  if (defaults.length > 0) problem(`${id}: ${defaults.join("; ")}`, "defaulted");
  let closed: number | undefined;
  if (present(f.closed)) {
    closed = parseTraceTime(f.closed);
    if (closed === undefined) problem(`${id}: bad date in closed '${f.closed}': read as never closed`, "defaulted");
  }
  let leadTime: number | undefined;
  let observed: number | undefined;
  if (closed !== undefined) {
    leadTime = closed - arrival;
    if (leadTime < 0) {
      problem(`${id}: closes ${((arrival - closed) / 3_600_000).toFixed(2)}h before it opens: lead time clamped to 0`, "clamped");
      leadTime = 0;
    }
    if (claimed !== undefined) {
      observed = closed - claimed;
      if (observed < 0) {
        problem(`${id}: closes ${((claimed - closed) / 3_600_000).toFixed(2)}h before its claim: duration clamped to 0`, "clamped");
        observed = 0;
      }
    }
  }
  const pool = present(f.pool) ? f.pool.trim() : DEFAULT_POOL;
  const blockedBy = f.blockedBy === undefined || f.blockedBy.length === 0 ? NONE : f.blockedBy.map((s) => s.trim()).filter((s) => s !== "");
  // Optional fields are set only when present (exactOptionalPropertyTypes); no object spreads on
  // this path, which runs once per row of million-row traces.
  const item: Mutable<RawTraceItem> = { id, source, line, arrival, band, pool, blockedBy, kind };
  if (due !== undefined) item.due = due;
  if (observed !== undefined) item.observed = observed;
  if (leadTime !== undefined) item.leadTime = leadTime;
  return item;
}
