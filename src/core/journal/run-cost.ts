import { z } from "zod";

/**
 * What one run cost, as LAND journals it (DESIGN.md, "Journal"): the wall clock Bosun measured
 * itself, always, and the tokens and money the worker reported, where it reported them.
 */
export interface RunCost {
  readonly wall_clock_s: number;
  readonly tokens?: number;
  readonly usd?: number;
}

/** What a worker may report about its run, beside its stop: `"cost": {"tokens": N, "usd": X}`. */
export type ReportedCost = Omit<RunCost, "wall_clock_s">;

const reportedSchema = z.strictObject(
  {
    tokens: z.number({ error: "must be a number" }).int("must be a whole number").nonnegative("must not be negative").max(1e15, "is implausibly large").optional(),
    usd: z.number({ error: "must be a number" }).finite("must be finite").nonnegative("must not be negative").max(1e9, "is implausibly large").optional(),
  },
  { error: "must be an object such as {\"tokens\": 1200, \"usd\": 0.04}" },
);

/**
 * Reads the `cost` a worker wrote into its result (top level of the result JSON, beside the
 * stop). Absent is fine (`{ok: true}` without a cost); a malformed one is a problem naming the
 * field, so the caller can say so in the run's evidence rather than journal a number nobody wrote.
 * @example parseReportedCost({ kind: "done", cost: { tokens: 1200, usd: 0.04 } }) // {ok: true, cost: {tokens: 1200, usd: 0.04}}
 */
export function parseReportedCost(result: unknown): { ok: true; cost?: ReportedCost } | { ok: false; problem: string } {
  if (result === null || typeof result !== "object" || !("cost" in result)) return { ok: true };
  const raw = (result as { cost: unknown }).cost;
  if (raw === undefined || raw === null) return { ok: true };
  const parsed = reportedSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, problem: parsed.error.issues.map((i) => `cost${i.path.length > 0 ? `.${i.path.join(".")}` : ""}: ${i.message}`).join("; ") };
  const { tokens, usd } = parsed.data;
  return { ok: true, cost: { ...(tokens === undefined ? {} : { tokens }), ...(usd === undefined ? {} : { usd }) } };
}

/** The cost LAND journals: the measured wall clock (rounded to the millisecond) and what was reported. */
export function runCost(wallClockMs: number, reported: ReportedCost | undefined): RunCost {
  return { wall_clock_s: Math.max(0, Math.round(wallClockMs)) / 1000, ...(reported ?? {}) };
}

/**
 * Reads a whole cost as LAND journals it (`{wall_clock_s, tokens?, usd?}`) from data another job
 * wrote — the agent job's result file, the land job's `bosun/work` record — validated exactly as a
 * worker's reported cost is. Absent is `undefined`; a malformed one is a problem naming the field:
 * a number nobody can have measured is refused, not journalled.
 * @example parseRunCost({ wall_clock_s: 12.5, tokens: 1200 }) // {wall_clock_s: 12.5, tokens: 1200}
 */
export function parseRunCost(raw: unknown): RunCost | undefined | { problem: string } {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== "object" || Array.isArray(raw)) return { problem: 'cost: must be an object such as {"wall_clock_s": 12.5, "tokens": 1200}' };
  const { wall_clock_s: wall, ...reported } = raw as Record<string, unknown>;
  if (typeof wall !== "number" || !Number.isFinite(wall) || wall < 0 || wall > 1e7) return { problem: "cost.wall_clock_s: must be a number of seconds from 0" };
  const parsed = parseReportedCost({ cost: reported });
  if (!parsed.ok) return { problem: parsed.problem };
  return { wall_clock_s: wall, ...parsed.cost };
}

/** The longest wall clock a run can have taken: a number past it was not measured. */
const MOST_WALL_CLOCK_S = 1e7;

/**
 * One cost field as the journal may hold it, by the rule `checkRunCost` writes by: the value when
 * it is a finite, non-negative, plausible number, else undefined. Readers of a journal (`bosun
 * stats`) apply it too, so a hand-edited or foreign line cannot make a sum Infinity.
 * @example plausibleCostField("usd", 1e308) // undefined
 */
export function plausibleCostField(field: keyof RunCost, value: unknown): number | undefined {
  if (field === "wall_clock_s") return typeof value === "number" && Number.isFinite(value) && value >= 0 && value <= MOST_WALL_CLOCK_S ? value : undefined;
  const parsed = reportedSchema.shape[field].safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/**
 * The one check every cost passes before it is journalled, on every face: each field that is not
 * a finite, non-negative, plausible number (a preset's `total_cost_usd: 1e999`, token counts summed
 * past Number.MAX_VALUE, a malformed count) is left out and named in `problem`, never written as
 * `null` — which once made `bosun stats` drop the whole run.
 * @example checkRunCost({ wall_clock_s: 3, usd: Infinity }) // {cost: {wall_clock_s: 3}, problem: "cost.usd: must be a number; not recorded"}
 */
export function checkRunCost(cost: RunCost): { cost: RunCost; problem?: string } {
  const problems: string[] = [];
  const wall = cost.wall_clock_s;
  const wallOk = typeof wall === "number" && Number.isFinite(wall) && wall >= 0 && wall <= MOST_WALL_CLOCK_S;
  if (!wallOk) problems.push("cost.wall_clock_s: must be a number of seconds from 0");
  const kept: { tokens?: number; usd?: number } = {};
  for (const field of ["tokens", "usd"] as const) {
    const value = cost[field];
    if (value === undefined) continue;
    const parsed = reportedSchema.shape[field].safeParse(value);
    if (parsed.success && parsed.data !== undefined) kept[field] = parsed.data;
    else problems.push(`cost.${field}: ${parsed.success ? "must be a number" : (parsed.error.issues[0]?.message ?? "is not valid")}`);
  }
  const checked: RunCost = { wall_clock_s: wallOk ? wall : 0, ...kept };
  return problems.length === 0 ? { cost: checked } : { cost: checked, problem: `${problems.join("; ")}; not recorded` };
}
