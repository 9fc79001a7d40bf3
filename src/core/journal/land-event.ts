import type { RunResult } from "../engine/engine-loop.js";
import type { Disposition, Stop } from "../stop/stop.js";
import type { JournalEvent, JournalStop } from "./journal-event.js";
import { checkRunCost } from "./run-cost.js";

/** Omit over each member of a union (plain Omit would merge the union's members). */
export type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** The stop as the journal writes it. */
export function journalStop(stop: Stop): JournalStop {
  switch (stop.kind) {
    case "done":
      return stop.reason === undefined ? { kind: "done" } : { kind: "done", reason: stop.reason };
    case "out_of_budget":
      return stop.reason === undefined ? { kind: stop.kind, limit: stop.limit } : { kind: stop.kind, limit: stop.limit, reason: stop.reason };
    case "blocked":
    case "failed":
      return { kind: stop.kind, reason: stop.reason };
  }
}

/** The LAND event of an outcome (without its time), as every front journals it. */
export function landEvent(item: string, epoch: number, result: RunResult, disposition: Disposition): Omit<Extract<JournalEvent, { event: "LAND" }>, "v" | "t"> {
  return {
    event: "LAND",
    item,
    epoch,
    ok: disposition === "ok",
    stop: journalStop(result.stop),
    ...(result.stop.kind === "failed" ? { failure: result.stop.failure } : {}),
    disposition,
    ...evidenceAndCost(result),
  };
}

/** The evidence and the cost, the cost checked (checkRunCost) and what was left out of it said in the evidence. */
function evidenceAndCost(result: RunResult): Pick<Extract<JournalEvent, { event: "LAND" }>, "evidence" | "cost"> {
  if (result.cost === undefined) return result.evidence === undefined ? {} : { evidence: result.evidence };
  const { cost, problem } = checkRunCost(result.cost);
  if (problem === undefined) return { ...(result.evidence === undefined ? {} : { evidence: result.evidence }), cost };
  const evidence = result.evidence ?? { command: "", exit: null, lines: [] };
  return { evidence: { ...evidence, lines: [...evidence.lines, problem] }, cost };
}

