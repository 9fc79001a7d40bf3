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
