import type { Stop } from "../stop/stop.js";
import { blocked, done, failed, outOfBudget } from "../stop/stop.js";

/**
 * A finished workflow run's conclusion as a stop. Only `success` is done; a failure the run did not
 * classify is cannot-classify (a human looks), never a guessed retry. `rerunBy`: the run's first
 * attempt (Bosun's) was re-run by that login since; the stop is the first attempt's and says so.
 */
export function stopFromRun(conclusion: string | null, url: string, rerunBy?: string): Stop {
  const stop = stopOfConclusion(conclusion, url);
  if (rerunBy === undefined) return stop;
  return { ...stop, reason: `${stop.reason} (re-run since by ${rerunBy || "someone"}: Bosun acts on the attempt it dispatched, not on a re-run)` };
}

function stopOfConclusion(conclusion: string | null, url: string): Stop {
  switch (conclusion) {
    case "success":
      return done(`workflow run succeeded: ${url}`);
    case "timed_out":
      return outOfBudget("wall_clock", `workflow run timed out: ${url}`);
    case "cancelled":
      return blocked(`workflow run was cancelled: ${url}`);
    case "failure":
    case "startup_failure":
      return failed("unclassified", `workflow run failed: ${url}`);
    default:
      return failed("unclassified", `workflow run ended '${conclusion ?? "without a conclusion"}': ${url}`);
  }
}

/** The run name a dispatched workflow shows (`run-name:` in its file), matched exactly to find an item's run. */
export function runTitle(item: string, epoch: number): string {
  return `bosun #${item} epoch ${epoch}`;
}

/** The epoch a run name gives for an item (`bosun #<item> epoch <e>`), if it is one of that item's. */
export function epochOfRunTitle(title: string, item: string): number | undefined {
  const prefix = `bosun #${item} epoch `;
  if (!title.startsWith(prefix)) return undefined;
  const epoch = Number(title.slice(prefix.length));
  return Number.isInteger(epoch) && epoch > 0 ? epoch : undefined;
}
