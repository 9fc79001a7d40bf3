import { z } from "zod";
import { parseStop } from "../stop/parse-stop.js";
import type { Stop } from "../stop/stop.js";
import type { RunCost } from "./run-cost.js";
import { parseRunCost } from "./run-cost.js";

/**
 * What a `work` run's land job says about the run it landed, for the App to journal on LAND
 * (DESIGN.md, "Journal"): which item and epoch it was dispatched for, which workflow run it is,
 * the stop it landed, and what it cost. The record binds to exactly one claim: item, epoch and
 * run id must all be the ones the App's own record gives that claim.
 */
export interface WorkRecordMarker {
  readonly v: 1;
  /** The issue number, as the dispatch's `item` input. */
  readonly item: string;
  readonly epoch: number;
  /** The workflow run's id (GITHUB_RUN_ID of the land job). */
  readonly run: number;
  readonly stop: Stop;
  /** Null when the agent job reported none (or one that did not validate). */
  readonly cost: RunCost | null;
}

const PREFIX = "<!-- bosun:work ";
const SUFFIX = " -->";

const markerSchema = z.strictObject({
  v: z.literal(1),
  item: z.string().regex(/^[1-9][0-9]{0,9}$/, "must be an issue number"),
  epoch: z.number().int().min(1),
  run: z.number().int().min(1),
  stop: z.unknown(),
  cost: z.unknown(),
});

/**
 * The name of the check run that carries the record: one name per item and epoch, so the App's
 * read of it (`check_name` is an exact match) returns that claim's records and nothing else.
 */
export function workRecordCheckName(item: string, epoch: number): string {
  return `bosun/work #${item} epoch ${epoch}`;
}

/**
 * The record as the FIRST line of the check run's summary: an HTML comment (invisible on GitHub)
 * holding JSON. The writer puts it before any text that came from the agent (its evidence).
 * @example renderWorkRecordMarker({ v: 1, item: "12", epoch: 2, run: 99, stop: { kind: "done" }, cost: { wall_clock_s: 40, tokens: 1200 } })
 */
export function renderWorkRecordMarker(marker: WorkRecordMarker): string {
  // `>` escaped: a stop reason holding `-->` would otherwise end the HTML comment early.
  const json = JSON.stringify({ v: 1, item: marker.item, epoch: marker.epoch, run: marker.run, stop: marker.stop, cost: marker.cost }).replace(/>/g, "\\u003e");
  return `${PREFIX}${json}${SUFFIX}`;
}

/**
 * Reads the record from a check run's summary (its first line only), or says why it does not
 * count. The stop and the cost are validated as the local drain validates a worker's result
 * (`parseStop`, `parseRunCost`): a malformed cost is left out and named as `costProblem` (the
 * stop still counts), never a number journalled.
 */
export function parseWorkRecordMarker(summary: string | null | undefined): { ok: true; marker: WorkRecordMarker; costProblem?: string } | { ok: false; reason: string } {
  const first = (summary ?? "").split("\n", 1)[0] ?? "";
  if (!first.startsWith(PREFIX) || !first.endsWith(SUFFIX)) return { ok: false, reason: "no bosun:work record on the summary's first line" };
  let json: unknown;
  try {
    json = JSON.parse(first.slice(PREFIX.length, first.length - SUFFIX.length));
  } catch {
    return { ok: false, reason: "the bosun:work record is not JSON" };
  }
  const parsed = markerSchema.safeParse(json);
  if (!parsed.success) return { ok: false, reason: `the bosun:work record is invalid: ${parsed.error.issues.map((i) => `${i.path.join(".") || "(record)"}: ${i.message}`).join("; ")}` };
  const stop = parseStop(parsed.data.stop);
  if (!stop.ok) return { ok: false, reason: `the bosun:work record has an invalid stop: ${stop.problem}` };
  const { item, epoch, run } = parsed.data;
  // A cost that does not validate is left out, and said so; the stop still counts.
  const cost = parseRunCost(parsed.data.cost);
  if (cost !== undefined && "problem" in cost) return { ok: true, marker: { v: 1, item, epoch, run, stop: stop.stop, cost: null }, costProblem: `invalid cost (${cost.problem})` };
  return { ok: true, marker: { v: 1, item, epoch, run, stop: stop.stop, cost: cost ?? null } };
}
