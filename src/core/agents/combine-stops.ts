import type { Stop } from "../stop/stop.js";
import { blocked, failed } from "../stop/stop.js";

/**
 * The stop of a preset run, from the agent's structured output and the file the model writes to
 * $BOSUN_RESULT. The runner's own output decides first; the model's file can only lower a `done`
 * (to blocked, say), never turn a budget or a failure the runner reported into success. Where the
 * model can write the file, `done` also needs it to say so: an agent that merely stopped (ended
 * its turn, asked a question) has not claimed completion (DESIGN.md, "Stop reasons").
 */
export function combineStops(fromOutput: Stop, fromFile: { ok: true; stop: Stop } | { ok: false; problem: string } | undefined, explicitFinish: boolean): Stop {
  if (fromOutput.kind !== "done") return fromOutput;
  if (fromFile === undefined) return explicitFinish ? blocked("the agent stopped without declaring the work finished (no done in $BOSUN_RESULT)") : fromOutput;
  if (!fromFile.ok) return failed("unclassified", `result file is not a valid stop: ${fromFile.problem}`);
  return fromFile.stop;
}
