/** A priority band: 0 is the highest, 4 the lowest. */
export type Band = 0 | 1 | 2 | 3 | 4;

/** The budgets a worker runs under; durations in seconds. */
export interface Budget {
  readonly wall_clock: number;
  readonly steps: number;
  readonly tokens: number;
  readonly tool_errors: number;
  /** The item's money cap in US dollars: what it reserves before dispatch, and what an agent that can enforce one is handed. */
  readonly usd?: number;
}

/** A validated, normalized brief: defaults filled, durations in seconds (DESIGN.md, "The brief"). */
export interface Brief {
  readonly id: string;
  readonly goal: string;
  readonly constraints: { readonly paths: readonly string[]; readonly notes: readonly string[] };
  readonly non_goals: readonly string[];
  readonly acceptance: { readonly command: string; readonly timeout: number };
  readonly size_cap: number;
  readonly budget: Budget;
  readonly priority: Band;
  readonly due?: string;
  readonly pool: string;
  readonly tier: string;
  readonly claim_key: string;
  readonly blocked_by: readonly string[];
}

/** One thing wrong with a brief: the field (dotted path), what is wrong, and where it came from. */
export interface BriefProblem {
  readonly field: string;
  readonly message: string;
  readonly source: string;
}

export type BriefResult =
  | { readonly ok: true; readonly brief: Brief }
  | { readonly ok: false; readonly problems: readonly BriefProblem[] };

export const BRIEF_DEFAULTS = {
  acceptanceTimeout: 600,
  budget: { wall_clock: 1800, steps: 200, tokens: 2_000_000, tool_errors: 5 },
  priority: 2 as Band,
  pool: "default",
  tier: "standard",
} as const;

/**
 * Renders problems one a line, `source: field: message`, as the CLI and comments show them, the
 * field said once (`x.yml: goal: must not be empty`, not `x.yml: goal: goal must not be empty`).
 */
export function formatProblems(problems: readonly BriefProblem[]): string {
  return problems.map((p) => `${p.source}: ${problemText(p)}`).join("\n");
}

/**
 * One problem without its source, field first: `field: message`, with the field said once
 * (`goal: must not be empty`, `size_kap: unknown field`), however the message was worded.
 */
export function problemText(p: Pick<BriefProblem, "field" | "message">): string {
  if (p.message.startsWith(`${p.field} `)) return `${p.field}: ${p.message.slice(p.field.length + 1)}`;
  if (p.message.endsWith(`: ${p.field}`)) return `${p.field}: ${p.message.slice(0, -(p.field.length + 2))}`;
  return `${p.field}: ${p.message}`;
}
