import type { AcceptanceRun } from "../core/gate/check-acceptance.js";
import { readHandedObject, stripControl } from "./read-handed-json.js";

/** The acceptance result a job without write access hands to the deciding job, read back as data. */
export interface AcceptanceResult {
  /** The commit the command ran on (`git rev-parse HEAD` in that job). */
  readonly sha: string;
  readonly run: AcceptanceRun;
}

/** A result file larger than this is refused unread: it is written by the PR's job. */
export const MAX_RESULT_BYTES = 64 * 1024;
const MAX_TAIL_LINES = 20;
const MAX_LINE = 500;
const SHA = /^[0-9a-f]{40}$/;

/**
 * Reads the result file the untrusted job uploaded (format in docs/security.md):
 * `{"bosun_acceptance": 1, "sha": "<40 hex>", "command": "npm test", "exit_code": 0, "timed_out": false, "seconds": 12.5, "tail": "..."}`.
 * Everything in it is treated as hostile data: sizes are capped, the tail is cut to its last 20
 * lines and stripped of escapes, and anything malformed is a `not-run` run whose reason says what
 * is wrong — could-not-check, never a pass. The SHA is returned as claimed; the caller compares it
 * with the commit it judges.
 */
export function readAcceptanceResult(text: string, source: string): AcceptanceResult {
  const refuse = (why: string, sha = "", command = "(the acceptance command)"): AcceptanceResult => ({ sha, run: { kind: "not-run", command, reason: `the acceptance result ${source} ${why}` } });
  const read = readHandedObject(text, MAX_RESULT_BYTES, { field: "bosun_acceptance", what: "acceptance result" });
  if (!read.ok) return refuse(read.why);
  const r = read.record;
  const sha = typeof r["sha"] === "string" ? r["sha"].trim().toLowerCase() : "";
  if (!SHA.test(sha)) return refuse("has no sha (the 40-hex commit the command ran on)");
  const command = typeof r["command"] === "string" ? clean(r["command"]).slice(0, MAX_LINE) : "";
  if (command.trim() === "") return refuse("names no command", sha);
  const exit = r["exit_code"];
  if (typeof exit !== "number" || !Number.isInteger(exit) || exit < 0 || exit > 255) return refuse("has no exit_code (a whole number from 0 to 255)", sha, command);
  const tail = typeof r["tail"] === "string" ? lastLines(clean(r["tail"])) : "";
  const seconds = typeof r["seconds"] === "number" && Number.isFinite(r["seconds"]) && r["seconds"] >= 0 ? r["seconds"] : 0;
  if (r["timed_out"] === true) return { sha, run: { kind: "timed-out", command, timeoutSeconds: Math.round(seconds), tail } };
  return { sha, run: { kind: "exited", command, exitCode: exit, ms: Math.round(seconds * 1000), tail } };
}

function clean(text: string): string {
  return stripControl(text);
}

function lastLines(text: string): string {
  return text
    .split("\n")
    .slice(-MAX_TAIL_LINES)
    .map((l) => (l.length > MAX_LINE ? `${l.slice(0, MAX_LINE)}…` : l))
    .join("\n");
}
