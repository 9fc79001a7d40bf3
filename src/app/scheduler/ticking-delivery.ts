import type { BosunConfig } from "../../core/config/bosun-config.js";

/**
 * The runs whose end the tick acts on: a work run (dispatched by Bosun) and a verify run (set off by
 * a deployment's status). The acceptance, gate, relay and separation runs end in a check run or a
 * commit status, whose own webhook (`check_run` for the gate) is the one that matters.
 */
const TICKING_RUN_EVENTS: ReadonlySet<string> = new Set(["workflow_dispatch", "deployment_status"]);

/** A pull request closed (merged or not) or reopened: an item in review moves on, or comes back. */
const TICKING_PULL_ACTIONS: ReadonlySet<string> = new Set(["closed", "reopened"]);

/**
 * Where an item's record stands when its issue closes and nothing is left for that close to do: its
 * work is done or under review (the pull request's own webhook moves it — a merge closes the issue
 * and the pull request at once), or it already ended.
 */
const CLOSE_CHANGES_NOTHING: ReadonlySet<string> = new Set(["review", "merged", "settled", "withdrawn"]);

/** What of a delivery decides whether it sets off a tick. */
export interface Delivery {
  readonly name: string;
  readonly action?: string;
  readonly runEvent?: string;
  readonly checkStatus?: string | null;
  /** A check run's conclusion (`success` is the gate's pass). */
  readonly checkConclusion?: string | null;
  /**
   * For an issue: the state of its item's record as this replica last read it, from a record GitHub
   * signed for the App (undefined: none known). Only a reason not to tick, never one to tick.
   */
  readonly itemState?: string;
}

/**
 * Whether a delivery sets off a tick now, or only drops a cache for the next one (the timed sweep
 * still catches anything): each tick costs a round of (mostly conditional) reads on whichever
 * replica hears the delivery, so only a delivery that can give the tick something to do now sets
 * one off. A gate run that only started has no verdict yet. A pull request opened, pushed to,
 * edited or drafted changes nothing the tick acts on at once — its gate's verdict does — except
 * where a worker is not a workflow run: there an opened pull request is how its end shows (a
 * workflow's end is its run's own webhook). The gate's pass waits for people; an issue closing
 * under an item in review (a merge closes both) or one that ended leaves the tick nothing to do.
 */
export function ticksNow(delivery: Delivery, config: BosunConfig | undefined): boolean {
  switch (delivery.name) {
    case "workflow_run":
      return TICKING_RUN_EVENTS.has(delivery.runEvent ?? "");
    case "check_run":
      // A pass decides nothing: the item waits for separation and a merge, people's moves, whose
      // own webhooks tick (`decide-review.ts`). The verdict is kept for the next tick all the same
      // (the handler still ticks when the replica could not journal it: `RepoTicker.heardGate`).
      return delivery.checkStatus === "completed" && delivery.checkConclusion !== "success";
    case "issues":
      return delivery.action !== "closed" || !CLOSE_CHANGES_NOTHING.has(delivery.itemState ?? "");
    case "pull_request":
      if (TICKING_PULL_ACTIONS.has(delivery.action ?? "")) return true;
      // Without the configuration at hand, the safe answer: tick.
      return delivery.action === "opened" && (config === undefined || Object.values(config.pools).some((p) => p.dispatch.kind !== "workflow"));
    default:
      return true;
  }
}
