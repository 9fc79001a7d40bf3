import { z } from "zod";
import { plausibleCostField } from "../journal/run-cost.js";
import { BUDGET_LIMITS, STOP_KINDS } from "../stop/stop.js";

/** A journal line as the metrics read it: only the fields they use, validated, `t` in ms. */
export type JournalRecord =
  | (RecordBase & { readonly event: "CLAIM" | "DENY" | "HOLD" | "RELEASE" | "RECLAIM" | "IDLE" })
  | (RecordBase & {
      readonly event: "DISPATCH";
      readonly epoch?: number;
      readonly tier?: string;
      /** Who ran it (a drain's agent preset, `command`); missing on lines older Bosuns wrote. */
      readonly agent?: string;
      /** What it reserved under money caps (US dollars). */
      readonly reserve_usd?: number;
    })
  | (RecordBase & {
      readonly event: "LAND";
      readonly epoch?: number;
      readonly ok: boolean;
      /** What the engine did with the outcome: settled ok, retried, refused, or handed to a human. */
      readonly disposition?: "ok" | "retry" | "refuse" | "human";
      readonly stop?: RecordedStop;
      readonly cost?: Cost;
      /** The land was refused because a newer epoch holds the item: it cost, but was not accepted. */
      readonly fenced?: true;
    })
  | (RecordBase & { readonly event: "GATE"; readonly verdict: GateVerdict });

interface RecordBase {
  /** 1-based line in the journal, so problems and ties can point back at it. */
  readonly line: number;
  readonly t: number;
  readonly item?: string;
  readonly class?: string;
}

export type GateVerdict = "pass" | "fail" | "could-not-check";

/** A stop as journalled. `limit` may be missing on old lines; the mix counts those as unspecified. */
export interface RecordedStop {
  readonly kind: (typeof STOP_KINDS)[number];
  readonly limit?: (typeof BUDGET_LIMITS)[number];
}

/** What one run cost, in whichever units the worker reported. */
export interface Cost {
  readonly tokens?: number;
  readonly usd?: number;
  readonly wall_clock_s?: number;
}

/** A line that could not be read: its number and why (never its content, which may hold secrets). */
export interface JournalProblem {
  readonly line: number;
  readonly reason: string;
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})$/;
const base = {
  v: z.literal(1, { error: "must be 1 (the only journal version this reads)" }),
  t: z.string().regex(ISO, "must be an ISO 8601 time with a zone"),
  item: z.union([z.string(), z.number()]).transform(String).optional(),
  class: z.string().optional(),
};
const recordSchema = z.discriminatedUnion(
  "event",
  [
    z.looseObject({ ...base, event: z.enum(["CLAIM", "DENY", "HOLD", "RELEASE", "RECLAIM", "IDLE"]) }),
    // The fields money lines read are taken when they are well formed, never a reason to skip the line.
    z.looseObject({ ...base, event: z.literal("DISPATCH"), epoch: z.unknown().optional(), tier: z.unknown().optional(), agent: z.unknown().optional(), reserve_usd: z.unknown().optional() }),
    z.looseObject({
      ...base,
      event: z.literal("LAND"),
      epoch: z.unknown().optional(),
      disposition: z.unknown().optional(),
      ok: z.boolean(),
      stop: z.looseObject({ kind: z.enum(STOP_KINDS), limit: z.enum(BUDGET_LIMITS).optional() }).optional(),
      // Read field by field (pickCost): a cost field nobody could have measured (a `null` an older
      // Bosun wrote for a non-finite number) is left out, and the run is still counted.
      cost: z.unknown().optional(),
      fenced: z.string().optional(),
    }),
    z.looseObject({ ...base, event: z.literal("GATE"), verdict: z.enum(["pass", "fail", "could-not-check"]) }),
  ],
  { error: "must be one of CLAIM, DENY, DISPATCH, HOLD, LAND, RELEASE, RECLAIM, IDLE, GATE" },
);

/** Reads one journal line; blank lines are `undefined`, bad ones a problem naming the line. */
export function parseJournalLine(text: string, line: number): { record: JournalRecord } | { problem: JournalProblem } | undefined {
  if (text.trim() === "") return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { problem: { line, reason: "not JSON" } };
  }
  const parsed = recordSchema.safeParse(json);
  if (!parsed.success) {
    const reason = parsed.error.issues.map((i) => (i.path.length > 0 ? `${i.path.join(".")}: ${i.message}` : i.message)).join("; ");
    return { problem: { line, reason } };
  }
  const t = Date.parse(parsed.data.t);
  if (Number.isNaN(t)) return { problem: { line, reason: "t: not a real time" } };
  return { record: toRecord(parsed.data, line, t) };
}

function toRecord(data: z.infer<typeof recordSchema>, line: number, t: number): JournalRecord {
  const common = { line, t, ...(data.item === undefined ? {} : { item: data.item }), ...(data.class === undefined ? {} : { class: data.class }) };
  switch (data.event) {
    case "LAND":
      return {
        ...common,
        event: "LAND",
        ok: data.ok,
        ...(wholeNumber(data.epoch) ? { epoch: data.epoch } : {}),
        ...(isDisposition(data.disposition) ? { disposition: data.disposition } : {}),
        ...(data.stop === undefined ? {} : { stop: data.stop.limit === undefined ? { kind: data.stop.kind } : { kind: data.stop.kind, limit: data.stop.limit } }),
        ...(data.cost === undefined ? {} : { cost: pickCost(data.cost) }),
        ...(data.fenced === undefined ? {} : { fenced: true as const }),
      };
    case "DISPATCH":
      return {
        ...common,
        event: "DISPATCH",
        ...(wholeNumber(data.epoch) ? { epoch: data.epoch } : {}),
        ...(typeof data.tier === "string" ? { tier: data.tier } : {}),
        ...(typeof data.agent === "string" ? { agent: data.agent } : {}),
        ...(plausibleCostField("usd", data.reserve_usd) === undefined ? {} : { reserve_usd: data.reserve_usd as number }),
      };
    case "GATE":
      return { ...common, event: "GATE", verdict: data.verdict };
    default:
      return { ...common, event: data.event };
  }
}

function pickCost(raw: unknown): Cost {
  if (raw === null || typeof raw !== "object") return {};
  const cost = raw as Record<string, unknown>;
  const kept: { tokens?: number; usd?: number; wall_clock_s?: number } = {};
  // By the writer's own rule: a field it would have refused (usd 1e308, a wall clock of 1e308 s)
  // once made the totals Infinity, printed as "$Infinity" and "NaN%" and written as null.
  for (const field of ["tokens", "usd", "wall_clock_s"] as const) {
    const value = plausibleCostField(field, cost[field]);
    if (value !== undefined) kept[field] = value;
  }
  return kept;
}

const wholeNumber = (x: unknown): x is number => typeof x === "number" && Number.isSafeInteger(x) && x >= 0;
const DISPOSITIONS = ["ok", "retry", "refuse", "human"] as const;
const isDisposition = (x: unknown): x is (typeof DISPOSITIONS)[number] => typeof x === "string" && (DISPOSITIONS as readonly string[]).includes(x);
