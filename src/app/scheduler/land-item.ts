import type { ClaimToken, ReleaseMode } from "../../core/claims/claim-token.js";
import type { RunResult } from "../../core/engine/engine-loop.js";
import type { Evidence } from "../../core/journal/journal-event.js";
import type { RunCost } from "../../core/journal/run-cost.js";
import type { Disposition, Stop } from "../../core/stop/stop.js";
import { landingFor } from "../../core/engine/decide-step.js";
import { journalEmitter } from "../../core/journal/journal-emitter.js";
import { landEvent } from "../../core/journal/land-event.js";
import { renderLanding } from "./render-landing.js";
import type { TickDeps } from "./reconcile-tick.js";
import { stepOptionsOf } from "./step-options-of.js";
import type { QueueIssue } from "./scheduler-github.js";

/** What landing a stop means for the claim: its disposition, a summary, and how the claim ends. */
export interface Landing {
  readonly stop: Stop;
  readonly disposition: Disposition;
  readonly summary: string;
  readonly mode: ReleaseMode;
  readonly evidence?: Evidence;
  /** What the run cost, as its worker reported it (journalled on LAND). */
  readonly cost?: RunCost;
}

/** Decides a landing at the token's attempt (the epoch counts attempts), by the one step's rule and backoff. */
export function landingOf(deps: Pick<TickDeps, "config">, token: ClaimToken, stop: Stop, now: number, evidence?: Evidence): Landing {
  return landingFor(stop, token.epoch, now, stepOptionsOf(deps.config), evidence);
}

/**
 * Lands one outcome on its own: the claim ref moves to a settled (or released) commit by
 * compare-and-swap first — a stale epoch stops here — then the journal, labels and comment follow.
 */
export async function landItem(deps: TickDeps, n: number, issue: QueueIssue | undefined, token: ClaimToken, stop: Stop, evidence?: Evidence, cost?: RunCost): Promise<{ disposition: Disposition; summary: string } | undefined> {
  const now = deps.clock.now();
  const landing: Landing = { ...landingOf(deps, token, stop, now, evidence), ...(cost === undefined ? {} : { cost }) };
  const released = await deps.store.release(token, landing.mode, now);
  if (!released.ok) {
    journalEmitter(deps.journal, deps.clock)({ ...landEvent(String(n), token.epoch, runResult(landing), landing.disposition), fenced: `${released.reason}: ${released.detail}` });
    return undefined;
  }
  await afterLanding(deps, n, issue, token, landing);
  return { disposition: landing.disposition, summary: landing.summary };
}

/** Once the claim ref says the item landed: journal it, then mirror it in labels and the snapshot comment. */
export async function afterLanding(deps: TickDeps, n: number, issue: QueueIssue | undefined, token: ClaimToken, landing: Landing): Promise<void> {
  const { github, config, clock } = deps;
  const labels = config.labels;
  const { stop, disposition, evidence } = landing;
  const emit = journalEmitter(deps.journal, clock);
  emit(landEvent(String(n), token.epoch, runResult(landing), disposition));
  emit({ event: "RELEASE", item: String(n), epoch: token.epoch });
  if (issue === undefined) return;
  const keep = issue.labels.filter((l) => l !== labels.claimed && (disposition === "retry" || l !== labels.queued));
  const add = disposition === "ok" ? [labels.done] : disposition === "human" || disposition === "refuse" ? [labels.needsHuman] : [];
  await github.setLabels(n, [...new Set([...keep, ...add])]);
  const snap = await github.snapshot(issue, true);
  if (snap.ok) await github.updateComment(snap.commentId, renderLanding(snap.body, { epoch: token.epoch, stop, disposition, at: clock.now(), by: deps.holder, ...(evidence === undefined ? {} : { evidence }) }));
}

/** The run a landing reports, in the shape the LAND event is built from. */
function runResult(landing: Landing): RunResult {
  return { stop: landing.stop, ...(landing.evidence === undefined ? {} : { evidence: landing.evidence }), ...(landing.cost === undefined ? {} : { cost: landing.cost }) };
}
