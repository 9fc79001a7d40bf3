import { epochOfRunTitle, runTitle } from "../../../core/scheduler/stop-from-run.js";
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
 * else by the run name the dispatched workflow sets (`bosun #<n> epoch <e>`) — only a run created
 * after that epoch was granted, and only one the App started (anyone with write access can start
 * the workflow with any inputs, and a run name is just an input). Never by time or order alone.
 */
export function runOf(runs: readonly RunView[], n: number, epoch: number, knownId: number | undefined, grantedAt: number | undefined, botLogin: string): RunView | undefined {
  const bot = normalizeLogin(botLogin);
  const since = (run: RunView): boolean => grantedAt === undefined || run.createdAt >= grantedAt - RUN_CLOCK_SKEW_MS;
  const ours = (run: RunView): boolean => normalizeLogin(run.actor) === bot;
  return runs.find((run) => (knownId !== undefined ? run.id === knownId : run.displayTitle === runTitle(String(n), epoch)) && since(run) && ours(run));
}

/**
 * What the App's runs say of an item no held record covers: the highest epoch one was titled with,
 * and whether one still runs. Only runs the App started: a run anyone with write access started,
 * titled `bosun #<n> epoch <huge>`, would otherwise keep the item from ever being granted.
 */
export function runsOfItem(runs: readonly RunView[], n: number, botLogin: string): { maxEpoch: number; live: boolean } {
  const bot = normalizeLogin(botLogin);
  let maxEpoch = 0;
  let live = false;
  for (const r of runs) {
    if (normalizeLogin(r.actor) !== bot) continue;
    const epoch = epochOfRunTitle(r.displayTitle, String(n));
    if (epoch === undefined) continue;
    maxEpoch = Math.max(maxEpoch, epoch);
    if (r.status !== "completed") live = true;
  }
  return { maxEpoch, live };
}
