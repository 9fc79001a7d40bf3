import { itemsOfRunTitle, runTitleNames } from "../../../core/scheduler/stop-from-run.js";
import { normalizeLogin } from "../../../core/separation/identity.js";
import type { RunView } from "./tick-github.js";

/**
 * How far a run's creation (GitHub's clock) may precede the grant (the granting writer's clock)
 * and still be that grant's run. Epochs are granted once each (the floor keeps them growing), so a
 * run named for an epoch from before its grant can only be an older life's: it is refused.
 */
export const RUN_CLOCK_SKEW_MS = 5 * 60_000;

/**
 * The run of an item's epoch: by the id its dispatch answered when this process dispatched it,
 * else by the run name the dispatched workflow sets (`bosun #<n> epoch <e>`, or a batch's
 * `bosun #<n> epoch <e>, #<m> epoch <f>`: one run, one matrix leg per item) — only a run created
 * after that epoch was granted, and only one the App started (anyone with write access can start
 * the workflow with any inputs, and a run name is just an input). Never by time or order alone.
 */
export function runOf(runs: readonly RunView[], n: number, epoch: number, knownId: number | undefined, grantedAt: number | undefined, botLogin: string): RunView | undefined {
  const bot = normalizeLogin(botLogin);
  const since = (run: RunView): boolean => grantedAt === undefined || run.createdAt >= grantedAt - RUN_CLOCK_SKEW_MS;
  const ours = (run: RunView): boolean => normalizeLogin(run.actor) === bot;
  return runs.find((run) => (knownId !== undefined ? run.id === knownId : runTitleNames(run.displayTitle, String(n), epoch)) && since(run) && ours(run));
}

/**
 * What the App's runs say of an item no held record covers: the highest epoch one was titled with,
 * and whether one still runs. Only runs the App started: a run anyone with write access started,
 * titled `bosun #<n> epoch <huge>`, would otherwise keep the item from ever being granted.
 * `landedBy`: the run whose landing the item's record holds — its leg for the item is over (the
 * land job is a leg's last), so a batch run still working on other items does not keep this one
 * from its next grant.
 */
export function runsOfItem(runs: readonly RunView[], n: number, botLogin: string, landedBy?: { readonly run: number; readonly epoch: number }): { maxEpoch: number; live: boolean } {
  const bot = normalizeLogin(botLogin);
  let maxEpoch = 0;
  let live = false;
  for (const r of runs) {
    if (normalizeLogin(r.actor) !== bot) continue;
    const named = itemsOfRunTitle(r.displayTitle).filter((i) => i.item === String(n));
    if (named.length === 0) continue;
    for (const i of named) maxEpoch = Math.max(maxEpoch, i.epoch);
    const legOver = landedBy !== undefined && r.id === landedBy.run && named.every((i) => i.epoch <= landedBy.epoch);
    if (r.status !== "completed" && !legOver) live = true;
  }
  return { maxEpoch, live };
}
