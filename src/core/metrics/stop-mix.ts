import { BUDGET_LIMITS, STOP_KINDS } from "../stop/stop.js";
import type { JournalRecord } from "./journal-record.js";

/** A count and its share of the runs that reported a stop (null when there were none). */
export interface Share {
  readonly count: number;
  readonly share: number | null;
}

/** The stop-reason mix of the runs landed in a window. */
export interface StopMix {
  /** LAND events that carried a stop: the denominator of every share. */
  readonly runs: number;
  /** LAND events without a stop (older journals): counted, left out of the shares. */
  readonly without_stop: number;
  readonly kinds: Readonly<Record<(typeof STOP_KINDS)[number], Share>>;
  /** Each limit's share of all runs, so the limits add up to `kinds.out_of_budget`. */
  readonly limits: Readonly<Record<(typeof BUDGET_LIMITS)[number] | "unspecified", Share>>;
}

/** Counts LAND events by stop kind and, for `out_of_budget`, by limit. */
export function stopMix(records: readonly JournalRecord[]): StopMix {
  const kinds = new Map<string, number>();
  const limits = new Map<string, number>();
  let runs = 0;
  let withoutStop = 0;
  for (const r of records) {
    if (r.event !== "LAND") continue;
    if (r.stop === undefined) {
      withoutStop += 1;
      continue;
    }
    runs += 1;
    kinds.set(r.stop.kind, (kinds.get(r.stop.kind) ?? 0) + 1);
    if (r.stop.kind === "out_of_budget") {
      const limit = r.stop.limit ?? "unspecified";
      limits.set(limit, (limits.get(limit) ?? 0) + 1);
    }
  }
  const share = (count: number): Share => ({ count, share: runs === 0 ? null : count / runs });
  const table = <K extends string>(keys: readonly K[], counts: Map<string, number>) =>
    Object.fromEntries(keys.map((k) => [k, share(counts.get(k) ?? 0)])) as Record<K, Share>;
  return {
    runs,
    without_stop: withoutStop,
    kinds: table(STOP_KINDS, kinds),
    limits: table([...BUDGET_LIMITS, "unspecified"] as const, limits),
  };
}
