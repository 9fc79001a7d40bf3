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

/**
 * The run name of a batched dispatch (`run-name: "bosun ${{ inputs.title }}"`): every item and
 * epoch it carries, `bosun #12 epoch 3, #13 epoch 1`. One item's is `runTitle`'s, exactly.
 */
export function batchRunTitle(items: ReadonlyArray<{ readonly item: string; readonly epoch: number }>): string {
  return `bosun ${items.map((i) => `#${i.item} epoch ${i.epoch}`).join(", ")}`;
}

const TITLE_ENTRY = /^#(\d+) epoch ([1-9]\d*)$/;

/**
 * Every item and epoch a run name carries (`runTitle` or `batchRunTitle`), or none when the whole
 * name is not one of Bosun's: a name that merely contains `#12 epoch 3` names nothing.
 */
export function itemsOfRunTitle(title: string): ReadonlyArray<{ readonly item: string; readonly epoch: number }> {
  if (!title.startsWith("bosun #")) return [];
  const entries = title.slice("bosun ".length).split(", ");
  const out: Array<{ item: string; epoch: number }> = [];
  for (const e of entries) {
    const m = TITLE_ENTRY.exec(e);
    if (m === null) return [];
    const epoch = Number(m[2]);
    if (!Number.isSafeInteger(epoch)) return [];
    out.push({ item: m[1] as string, epoch });
  }
  return out;
}

/** The epoch a run name gives for an item (one-item or batched), if it names that item. */
export function epochOfRunTitle(title: string, item: string): number | undefined {
  return itemsOfRunTitle(title).find((i) => i.item === item)?.epoch;
}

/** Whether a run name names this item at this epoch. */
export function runTitleNames(title: string, item: string, epoch: number): boolean {
  return itemsOfRunTitle(title).some((i) => i.item === item && i.epoch === epoch);
}
