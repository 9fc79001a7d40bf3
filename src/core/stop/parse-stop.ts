import { z } from "zod";
import type { Stop } from "./stop.js";
import { BUDGET_LIMITS, FAILURE_CLASSES } from "./stop.js";

const reason = z.string().max(2000).optional();

/** A stop as a worker writes it to $BOSUN_RESULT (the journal's shape; `failure` on failed stops). */
const stopSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("done"), reason }),
  z.object({ kind: z.literal("out_of_budget"), limit: z.enum(BUDGET_LIMITS), reason }),
  z.object({ kind: z.literal("blocked"), reason: z.string().min(1).max(2000) }),
  z.object({ kind: z.literal("failed"), failure: z.enum(FAILURE_CLASSES).default("unclassified"), reason: z.string().max(2000).default("no reason given") }),
]);

/** Reads a worker's stop from its JSON, or says what is wrong with it (the caller treats that as cannot-classify). */
export function parseStop(input: unknown): { ok: true; stop: Stop } | { ok: false; problem: string } {
  const body = input !== null && typeof input === "object" && "stop" in input ? (input as { stop: unknown }).stop : input;
  const parsed = stopSchema.safeParse(body);
  if (!parsed.success) {
    return { ok: false, problem: parsed.error.issues.map((i) => `${i.path.join(".") || "(stop)"}: ${i.message}`).join("; ") };
  }
  const s = parsed.data;
  const stop: Stop =
    s.kind === "done"
      ? s.reason === undefined ? { kind: "done" } : { kind: "done", reason: s.reason }
      : s.kind === "out_of_budget"
        ? s.reason === undefined ? { kind: "out_of_budget", limit: s.limit } : { kind: "out_of_budget", limit: s.limit, reason: s.reason }
        : s;
  return { ok: true, stop };
}
