import type { JournalRecord } from "./journal-record.js";

/** Which items of a window were accepted, and why the others that landed ok were not. */
export interface Acceptance {
  /** Landed ok (not fenced) and their latest GATE passed. */
  readonly accepted: ReadonlySet<string>;
  /** Landed ok with no GATE yet: no verdict, so not accepted. */
  readonly notGated: ReadonlySet<string>;
  /** Landed ok, but their latest GATE failed or could not check. */
  readonly notPassed: ReadonlySet<string>;
}

/**
 * An item is accepted when it has a LAND with `ok: true` (and not fenced) among the records and its
 * latest GATE among them (by time, then by line) is `pass` (docs/stats.md). Landing ok is the
 * worker's claim; acceptance is the gate's verdict.
 */
export function acceptance(records: readonly JournalRecord[]): Acceptance {
  const landedOk = new Set<string>();
  const lastGate = new Map<string, Extract<JournalRecord, { event: "GATE" }>>();
  for (const r of records) {
    if (r.event === "LAND") {
      if (r.ok && r.fenced !== true && r.item !== undefined) landedOk.add(r.item);
    } else if (r.event === "GATE" && r.item !== undefined) {
      const seen = lastGate.get(r.item);
      if (seen === undefined || r.t > seen.t || (r.t === seen.t && r.line > seen.line)) lastGate.set(r.item, r);
    }
  }
  const accepted = new Set<string>();
  const notGated = new Set<string>();
  const notPassed = new Set<string>();
  for (const item of landedOk) {
    const gate = lastGate.get(item);
    if (gate === undefined) notGated.add(item);
    else if (gate.verdict === "pass") accepted.add(item);
    else notPassed.add(item);
  }
  return { accepted, notGated, notPassed };
}
