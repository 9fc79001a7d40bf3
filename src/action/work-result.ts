import type { Evidence, RunCost } from "../core/journal/journal-event.js";
import { parseRunCost } from "../core/journal/run-cost.js";
import { parseStop } from "../core/stop/parse-stop.js";
import type { Stop } from "../core/stop/stop.js";
import { readHandedObject, stripControl } from "./read-handed-json.js";

/**
 * The agent job's result as the land job reads it back. The agent job holds no GitHub credential,
 * so its result crosses to the job that does as a file, and everything in that file is the agent's
 * to write: it is read as hostile data (capped, validated, stripped), never executed.
 */
export interface WorkResult {
  readonly item: number;
  readonly epoch: number;
  readonly briefHash: string;
  readonly stop: Stop;
  readonly evidence: Evidence;
  /** What the run cost: the wall clock the agent job measured, tokens and money as the agent reported them. */
  readonly cost?: RunCost;
}

/** A result file larger than this is refused unread. */
export const MAX_WORK_RESULT_BYTES = 64 * 1024;
const MAX_LINES = 20;
const MAX_LINE = 500;
const HASH = /^sha256:[0-9a-f]{64}$/;
// Terminal escapes and control characters (tab and newline kept): evidence is shown on the issue.

/** The file the agent phase writes: `{"bosun_work": 1, item, epoch, brief_hash, stop, evidence, cost?}`. */
export function renderWorkResult(result: WorkResult): string {
  return `${JSON.stringify({ bosun_work: 1, item: result.item, epoch: result.epoch, brief_hash: result.briefHash, stop: result.stop, evidence: result.evidence, ...(result.cost === undefined ? {} : { cost: result.cost }) })}\n`;
}

/** Reads a result file; `{ problem }` names what is wrong with it (the land then refuses). */
export function readWorkResult(text: string, source: string): WorkResult | { readonly problem: string } {
  const refuse = (why: string) => ({ problem: `the work result ${source} ${why}` });
  const read = readHandedObject(text, MAX_WORK_RESULT_BYTES, { field: "bosun_work", what: "work result" });
  if (!read.ok) return refuse(read.why);
  const r = read.record;
  const item = r["item"];
  const epoch = r["epoch"];
  if (typeof item !== "number" || !Number.isInteger(item) || item < 1) return refuse("has no item (an issue number)");
  if (typeof epoch !== "number" || !Number.isInteger(epoch) || epoch < 1) return refuse("has no epoch (a whole number from 1)");
  const briefHash = r["brief_hash"];
  if (typeof briefHash !== "string" || !HASH.test(briefHash)) return refuse("has no brief_hash (sha256:<64 hex>)");
  const stop = parseStop(r["stop"]);
  if (!stop.ok) return refuse(`has no valid stop: ${stop.problem}`);
  const e = r["evidence"] !== null && typeof r["evidence"] === "object" && !Array.isArray(r["evidence"]) ? (r["evidence"] as Record<string, unknown>) : {};
  const exit = typeof e["exit"] === "number" && Number.isInteger(e["exit"]) && e["exit"] >= 0 && e["exit"] <= 255 ? e["exit"] : null;
  const lines = (Array.isArray(e["lines"]) ? e["lines"] : []).filter((l): l is string => typeof l === "string").slice(-MAX_LINES).map(cut);
  const cost = parseRunCost(r["cost"]);
  if (cost !== undefined && "problem" in cost) return refuse(`has an invalid cost: ${cost.problem}`);
  return { item, epoch, briefHash, stop: stop.stop, evidence: { command: typeof e["command"] === "string" ? cut(e["command"]) : "", exit, lines }, ...(cost === undefined ? {} : { cost }) };
}

function cut(line: string): string {
  const clean = stripControl(line);
  return clean.length > MAX_LINE ? `${clean.slice(0, MAX_LINE)}…` : clean;
}
