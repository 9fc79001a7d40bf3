import type { TickAsk } from "../../../core/scheduler/tick-ask.js";
import { itemsOfRunTitle } from "../../../core/scheduler/stop-from-run.js";
import { issuesOfPull } from "./issues-of-pull.js";
import type { HeardPull } from "./tick-github.js";

/** What of a delivery names what it asks of a tick. */
export interface AskingDelivery {
  readonly name: string;
  readonly action?: string;
  /** For `issues.labeled`: the label added, the issue as the payload shows it, and the approval label it is asked about (the repository's configuration). */
  readonly label?: { readonly name?: string };
  readonly issue?: { readonly number: number; readonly updated_at?: string };
  readonly readyLabel?: string;
  readonly workflow_run?: { readonly event?: string; readonly display_title?: string };
  readonly pull_request?: HeardPull;
}

/**
 * What a delivery asks of the tick it sets off, when that is all (`TickAsk`): a work run that ended
 * asks that its items be landed (read from its run name, as the tick reads it, `bosun #<n> epoch
 * <e>`); a pull request closed asks that the items it is for be past review; the approval label
 * added to an issue asks that an approval that recent be recorded. An empty answer: the
 * delivery wants a whole tick. Anyone with write access can start a run of any name or close a pull
 * request: an ask only ever lets a tick stop early when the claims show its work already done.
 */
export function asksOfDelivery(delivery: AskingDelivery): TickAsk[] {
  if (delivery.name === "workflow_run" && delivery.workflow_run?.event === "workflow_dispatch") {
    const items = itemsOfRunTitle(delivery.workflow_run.display_title ?? "");
    if (items.some((i) => !/^[1-9]\d*$/.test(i.item))) return [];
    return items.map((i) => ({ kind: "run-ended", n: Number(i.item), epoch: i.epoch }));
  }
  if (delivery.name === "issues" && delivery.action === "labeled" && delivery.issue !== undefined && delivery.readyLabel !== undefined && delivery.label?.name?.toLowerCase() === delivery.readyLabel.toLowerCase()) {
    // The issue's `updated_at` (GitHub's whole seconds): when the label went on, or — if a label
    // does not move it (reported of GitHub: https://github.com/isaacs/github/issues/1676) — the
    // issue's last other change, which is after any approval Bosun recorded, since Bosun comments
    // on the issue when it records one. Either way an older approval does not answer the ask.
    const at = Date.parse(delivery.issue.updated_at ?? "");
    return Number.isFinite(at) ? [{ kind: "approved", n: delivery.issue.number, at }] : [];
  }
  if (delivery.name === "pull_request" && delivery.action === "closed" && delivery.pull_request !== undefined) {
    return [...issuesOfPull(delivery.pull_request)].map((n) => ({ kind: "pull-closed", n }));
  }
  return [];
}
