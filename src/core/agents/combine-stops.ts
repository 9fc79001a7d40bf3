import type { Stop } from "../stop/stop.js";
import { failed } from "../stop/stop.js";

/**
 * The stop of a preset run, from the agent's structured output and the file the model may write
 * to $BOSUN_RESULT. The runner's own output decides; the model's file can only lower a `done`
 * (to blocked, say) — it can never turn a budget or a failure the runner reported into success.
 */
export function combineStops(fromOutput: Stop, fromFile: { ok: true; stop: Stop } | { ok: false; problem: string } | undefined): Stop {
  if (fromOutput.kind !== "done" || fromFile === undefined) return fromOutput;
  if (!fromFile.ok) return failed("unclassified", `result file is not a valid stop: ${fromFile.problem}`);
  return fromFile.stop;
}
