/** The three honest answers of every check (DESIGN.md, principle 4). */
export type CheckOutcome = "passed" | "failed" | "could-not-check";

/** A note pinned to one file, rendered as a check-run annotation. */
export interface Annotation {
  readonly path: string;
  readonly message: string;
  /** 1-based; absent means the whole file (line 1 in a check run). */
  readonly line?: number;
}

/** The names of the gate's checks, in the order the report shows them. */
export type CheckName = "acceptance" | "diff" | "paths" | "size" | "sensitive" | "review";

/** One check's answer: what it concluded, the evidence a human can verify, and per-file notes. */
export interface CheckResult {
  readonly check: CheckName;
  readonly result: CheckOutcome;
  readonly evidence: string;
  readonly annotations: readonly Annotation[];
  /** Set when a human must look even though nothing is wrong with the work itself (sensitive paths). */
  readonly needsHuman?: boolean;
  /** An advisory result is reported but never counted in the verdict (the reviewer in advisory mode). */
  readonly advisory?: boolean;
}

/** Builds a CheckResult with no annotations unless given. */
export function checkResult(check: CheckName, result: CheckOutcome, evidence: string, annotations: readonly Annotation[] = []): CheckResult {
  return { check, result, evidence, annotations };
}
