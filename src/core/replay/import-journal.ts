import { forEachLine } from "./for-each-line.js";
import { parseTraceTime } from "./parse-trace-time.js";
import { DEFAULT_BAND, DEFAULT_POOL, UNKNOWN_KIND } from "./read-item-fields.js";
import type { ImportResult, RawTraceItem, TraceProblem } from "./trace.js";

const EVENTS = new Set(["CLAIM", "DENY", "DISPATCH", "HOLD", "LAND", "RELEASE", "RECLAIM", "IDLE"]);

interface Seen {
  line: number;
  first: number;
  dispatchedAt?: number;
  busy: number;
  dispatches: number;
  landedAt?: number;
  /** When the open attempt's lease was reclaimed, if it was. */
  reclaimedAt?: number;
  /** What the open attempt reserved (US dollars), if its DISPATCH says. */
  reserved?: number;
  /** What its attempts cost so far (US dollars), and whether some attempt's cost is not known. */
  usd: number;
  costUnknown: boolean;
}

/** A non-negative finite amount, or undefined. */
const amount = (x: unknown): number | undefined => (typeof x === "number" && Number.isFinite(x) && x >= 0 ? x : undefined);

/**
 * Reads Bosun's own journal (JSONL events, DESIGN.md "Journal"): arrival is the first time an
 * item appears, the observed duration is the sum of its DISPATCH -> LAND spans (every attempt's
 * work counts: an attempt with no LAND counts until its RECLAIM or the next DISPATCH, reported as
 * clamped), the item closes at its last LAND. The journal carries no priority or pool, so
 * every item is P2 in the default pool, and that is reported once. An item's cost is what its
 * attempts cost: each LAND's reported `cost.usd`, else what its DISPATCH reserved (`reserve_usd`,
 * kept as spent, as the spend ledger counts it); an attempt with neither leaves it unknown.
 */
export function importJournal(text: string, source: string): ImportResult {
  const problems: TraceProblem[] = [];
  const seen = new Map<string, Seen>();
  let lines = 0;
  forEachLine(text, (raw, line) => {
    lines++;
    let e: Record<string, unknown>;
    try {
      const v: unknown = JSON.parse(raw);
      if (typeof v !== "object" || v === null || Array.isArray(v)) throw new Error("not an object");
      e = v as Record<string, unknown>;
    } catch {
      problems.push({ source, line, message: "not a JSON object", rule: "skipped" });
      return;
    }
    const event = e["event"];
    if (typeof event !== "string" || !EVENTS.has(event)) {
      problems.push({ source, line, message: `unknown event '${String(event)}'`, rule: "skipped" });
      return;
    }
    const item = e["item"];
    if (event === "IDLE" || typeof item !== "string") return;
    const t = typeof e["t"] === "string" ? parseTraceTime(e["t"]) : undefined;
    if (t === undefined) {
      problems.push({ source, line, message: `${item}: bad time '${String(e["t"])}'`, rule: "skipped" });
      return;
    }
    let s = seen.get(item);
    if (s === undefined) {
      s = { line, first: t, busy: 0, dispatches: 0, usd: 0, costUnknown: false };
      seen.set(item, s);
    }
    if (t < s.first) s.first = t;
    if (event === "DISPATCH") {
      if (s.dispatchedAt !== undefined) {
        // An attempt that never landed (its worker died, its lease was reclaimed): its work up to
        // this new attempt still counts, and is said to be an estimate, never dropped silently.
        const end = s.reclaimedAt !== undefined && s.reclaimedAt >= s.dispatchedAt ? s.reclaimedAt : t;
        s.busy += Math.max(0, end - s.dispatchedAt);
        problems.push({
          source,
          line,
          message: `${item}: DISPATCH ${s.dispatches + 1} while attempt ${s.dispatches} had no LAND: that attempt counted until its ${s.reclaimedAt !== undefined && s.reclaimedAt >= s.dispatchedAt ? "RECLAIM" : "next DISPATCH"}`,
          rule: "clamped",
        });
        // It cost what it reserved, as the spend ledger counts a run that reported nothing.
        settleCost(s, undefined);
      }
      s.dispatchedAt = t;
      delete s.reclaimedAt;
      const reserved = amount(e["reserve_usd"]);
      if (reserved === undefined) delete s.reserved;
      else s.reserved = reserved;
      s.dispatches++;
    } else if (event === "RECLAIM") {
      s.reclaimedAt = t;
    } else if (event === "LAND") {
      if (s.dispatchedAt === undefined) problems.push({ source, line, message: `${item}: LAND without a DISPATCH: no work counted`, rule: "ignored" });
      else if (t < s.dispatchedAt) problems.push({ source, line, message: `${item}: LAND before its DISPATCH: span clamped to 0`, rule: "clamped" });
      else s.busy += t - s.dispatchedAt;
      if (s.dispatchedAt !== undefined) settleCost(s, amount((e["cost"] as Record<string, unknown> | undefined)?.["usd"]));
      delete s.dispatchedAt;
      s.landedAt = Math.max(t, s.landedAt ?? t);
    }
  });
  const items: RawTraceItem[] = [];
  for (const [id, s] of seen) {
    const landed = s.landedAt !== undefined && s.dispatches > 0;
    items.push({
      id,
      source,
      line: s.line,
      arrival: s.first,
      band: DEFAULT_BAND,
      pool: DEFAULT_POOL,
      blockedBy: [],
      kind: UNKNOWN_KIND,
      ...(landed ? { observed: s.busy, leadTime: (s.landedAt as number) - s.first } : {}),
      ...(landed && !s.costUnknown ? { cost: s.usd } : {}),
    });
  }
  if (lines === 0) problems.push({ source, line: 0, message: "empty file: no items", rule: "skipped" });
  else if (items.length > 0) {
    problems.push({ source, line: 0, message: `journal events carry no priority or pool: ${items.length} items read as P${DEFAULT_BAND} in pool '${DEFAULT_POOL}'`, rule: "defaulted" });
  }
  return { items, problems, source, format: "bosun-journal" };
}

/** Adds an ended attempt's cost: what it reported, else what it reserved, else the item's cost is unknown. */
function settleCost(s: Seen, reported: number | undefined): void {
  const usd = reported ?? s.reserved;
  if (usd === undefined) s.costUnknown = true;
  else s.usd += usd;
  delete s.reserved;
}
