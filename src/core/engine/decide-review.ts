import type { Stop } from "../stop/stop.js";
import type { Decision } from "./decision.js";
import { landingFor } from "./landing-for.js";
import type { ReviewingItem, StepOptions } from "./step-state.js";

/**
 * What a reviewed item's pull request and gate say (docs/lifecycle.md): a merge ends it done (or
 * waits for the deployment where the repository verifies); a gate failure off the brief is refused
 * for a human with the gate's words, a failed acceptance command is retried at the next epoch,
 * could-not-check goes to a human; a pull request closed unmerged goes to a human. A pass, or no
 * verdict yet, waits (for separation and a merge, which are people's).
 */
export function decideReview(item: ReviewingItem, now: number, options: Pick<StepOptions, "maxAttempts" | "backoffMs">): Decision | undefined {
  const land = (stop: Stop): Decision => ({ kind: "advance", id: item.id, epoch: item.epoch, to: "landed", landing: landingFor(stop, item.epoch, now, options) });
  const { pull, gate } = item;
  if (pull.state === "merged") {
    const merge = pull.mergeSha ?? "";
    if (item.verify && !item.merged) return { kind: "advance", id: item.id, epoch: item.epoch, to: "merged", mergeSha: merge };
    // Merged, and verified where the repository verifies (the verify mode lands those): done.
    if (!item.verify) return land({ kind: "done", reason: `pull request #${pull.number} merged${merge === "" ? "" : ` as ${merge.slice(0, 12)}`}` });
    return undefined;
  }
  if (item.merged) return undefined;
  if (pull.state === "closed") return land({ kind: "blocked", reason: `pull request #${pull.number} was closed unmerged` });
  if (gate === undefined || gate.verdict === "pass") return undefined;
  if (gate.verdict === "could-not-check") return land({ kind: "failed", failure: "unclassified", reason: `the gate could not check pull request #${pull.number} at ${gate.sha.slice(0, 12)}: ${gate.reason}` });
  return land({ kind: "failed", failure: gate.failure ?? "refuse", reason: `the gate failed pull request #${pull.number} at ${gate.sha.slice(0, 12)}: ${gate.reason}` });
}
