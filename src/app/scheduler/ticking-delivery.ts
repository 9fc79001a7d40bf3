import type { BosunConfig } from "../../core/config/bosun-config.js";

/**
 * The runs whose end the tick acts on: a work run (dispatched by Bosun) and a verify run (set off by
 * a deployment's status). The acceptance, gate, relay and separation runs end in a check run or a
 * commit status, whose own webhook (`check_run` for the gate) is the one that matters.
 */
const TICKING_RUN_EVENTS: ReadonlySet<string> = new Set(["workflow_dispatch", "deployment_status"]);

/** A pull request closed (merged or not) or reopened: an item in review moves on, or comes back. */
const TICKING_PULL_ACTIONS: ReadonlySet<string> = new Set(["closed", "reopened"]);

/** What of a delivery decides whether it sets off a tick. */
export interface Delivery {
  readonly name: string;
  readonly action?: string;
  readonly runEvent?: string;
  readonly checkStatus?: string | null;
}

/**
 * Whether a delivery sets off a tick now, or only drops a cache for the next one (the timed sweep
 * still catches anything): each tick costs a round of (mostly conditional) reads on whichever
 * replica hears the delivery, so only a delivery that can give the tick something to do now sets
 * one off. A gate run that only started has no verdict yet. A pull request opened, pushed to,
 * edited or drafted changes nothing the tick acts on at once — its gate's verdict does — except
 * where a worker is not a workflow run: there an opened pull request is how its end shows (a
 * workflow's end is its run's own webhook).
 */
export function ticksNow(delivery: Delivery, config: BosunConfig | undefined): boolean {
  switch (delivery.name) {
    case "workflow_run":
      return TICKING_RUN_EVENTS.has(delivery.runEvent ?? "");
    case "check_run":
      return delivery.checkStatus === "completed";
    case "pull_request":
      if (TICKING_PULL_ACTIONS.has(delivery.action ?? "")) return true;
      // Without the configuration at hand, the safe answer: tick.
      return delivery.action === "opened" && (config === undefined || Object.values(config.pools).some((p) => p.dispatch.kind !== "workflow"));
    default:
      return true;
  }
}
