import type { JournalRecord } from "./journal-record.js";

/** Gate runs of one task class and how many the gate rejected. */
export interface GateRejection {
  readonly class: string;
  readonly gates: number;
  readonly pass: number;
  readonly fail: number;
  readonly could_not_check: number;
  /**
   * fail ÷ (pass + fail); null when no gate gave a verdict. Could-not-check is not a rejection (the
   * gate did not judge the change), so it is left out and reported on its own.
   */
  readonly rejection_rate: number | null;
}

/** The class of tasks that no event names. */
export const UNCLASSED = "(none)";

/**
 * Rejection rate per task class over the GATE events given (one row per class, sorted, then the
 * row `all`). A GATE's class is its own `class`, else the last `class` any event gave its item
 * in `classes`, else UNCLASSED. Every gate run counts: a change gated three times counts three.
 */
export function gateRejections(records: readonly JournalRecord[], classes: ReadonlyMap<string, string>): GateRejection[] {
  const rows = new Map<string, { pass: number; fail: number; could_not_check: number }>();
  const all = { pass: 0, fail: 0, could_not_check: 0 };
  for (const r of records) {
    if (r.event !== "GATE") continue;
    const cls = r.class ?? (r.item === undefined ? undefined : classes.get(r.item)) ?? UNCLASSED;
    const row = rows.get(cls) ?? { pass: 0, fail: 0, could_not_check: 0 };
    rows.set(cls, row);
    const field = r.verdict === "could-not-check" ? "could_not_check" : r.verdict;
    row[field] += 1;
    all[field] += 1;
  }
  const toRow = (cls: string, c: { pass: number; fail: number; could_not_check: number }): GateRejection => ({
    class: cls,
    gates: c.pass + c.fail + c.could_not_check,
    ...c,
    rejection_rate: c.pass + c.fail === 0 ? null : c.fail / (c.pass + c.fail),
  });
  return [...[...rows.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([cls, c]) => toRow(cls, c)), toRow("all", all)];
}

/** The last `class` each item was given by any event, in journal order. */
export function classesByItem(records: readonly JournalRecord[]): Map<string, string> {
  const classes = new Map<string, string>();
  for (const r of records) if (r.item !== undefined && r.class !== undefined) classes.set(r.item, r.class);
  return classes;
}
