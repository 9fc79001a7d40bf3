import type { Band } from "../brief/brief.js";

/** How an item's duration was obtained: read from the trace, or estimated by a named rule. */
export type DurationSource = "observed" | "class-median" | "lead-time" | "default";

/** One work item of a trace, ready to replay: times in ms since the epoch, durations in ms. */
export interface TraceItem {
  readonly id: string;
  /** When the item was first seen (queued); held fixed in every replay. */
  readonly arrival: number;
  readonly band: Band;
  readonly pool: string;
  readonly due?: number;
  /** Ids of items that must complete before this one may start (only ids present in the trace). */
  readonly blockedBy: readonly string[];
  /** Work time on one worker. */
  readonly duration: number;
  readonly durationSource: DurationSource;
  /** The item's class (issue type): what duration estimates are grouped by. */
  readonly kind: string;
  /** What its runs cost (US dollars), where the trace records it: a daily budget's replay counts it. */
  readonly cost?: number;
}

/** What happened to a row that was not taken as written. */
export type ProblemRule = "skipped" | "clamped" | "defaulted" | "ignored";

/** A malformed or odd row: where it is, what is wrong, and the rule applied to it. */
export interface TraceProblem {
  readonly source: string;
  /** 1-based line in the source; 0 for the file as a whole. */
  readonly line: number;
  readonly message: string;
  readonly rule: ProblemRule;
}

/**
 * An item as an importer read it, before durations are settled: the observed duration when the
 * trace records a start and an end of the work, otherwise whatever the estimate needs.
 */
export interface RawTraceItem {
  readonly id: string;
  readonly source: string;
  readonly line: number;
  readonly arrival: number;
  readonly band: Band;
  readonly pool: string;
  readonly due?: number;
  readonly blockedBy: readonly string[];
  readonly kind: string;
  /** Work time read from the trace (claim or dispatch to close or land), ms. */
  readonly observed?: number;
  /** Arrival to close, ms (includes queueing), when the item closed. */
  readonly leadTime?: number;
  /** What its runs cost (US dollars), when the trace records a cost for every run of it. */
  readonly cost?: number;
}

/** What one importer returns: items and every problem, each with its line. */
export interface ImportResult {
  readonly items: RawTraceItem[];
  readonly problems: TraceProblem[];
  readonly source: string;
  /** The format the importer recognised, for the report. */
  readonly format: string;
}

/** How many items took each duration rule, for the report. */
export type DurationCounts = Record<DurationSource, number>;

/** A trace ready to replay. */
export interface Trace {
  readonly items: readonly TraceItem[];
  readonly problems: readonly TraceProblem[];
  readonly durations: DurationCounts;
  /** The stated rule for estimated durations, in words. */
  readonly durationRule: string;
  /** Dependency cycles found (ids in each), whose edges were dropped. */
  readonly cycles: readonly (readonly string[])[];
}

export const HOUR_MS = 3_600_000;
