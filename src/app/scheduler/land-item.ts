import type { Evidence } from "../../core/journal/journal-event.js";
import type { Disposition, Stop } from "../../core/stop/stop.js";
import { describeStop } from "../../core/stop/stop.js";
import { dispositionFor } from "../../core/stop/disposition-for.js";
import { exponentialBackoff } from "../../core/engine/engine-options.js";
import { journalEmitter } from "../../core/journal/journal-emitter.js";
import { landEvent } from "../../core/journal/land-event.js";

/** Delay before a retried item may be claimed again: 2 s, doubling per attempt, at most 5 minutes. */
const RETRY_BACKOFF = exponentialBackoff(2000, 300_000);
import type { ClaimToken } from "../../core/claims/claim-token.js";
import { renderLanding } from "./render-landing.js";
import type { TickDeps } from "./reconcile-tick.js";
import type { QueueIssue } from "./scheduler-github.js";

/**
 * Lands one outcome: the claim ref moves to a settled (or released) commit by compare-and-swap
 * first — a stale epoch stops here — then the labels and the snapshot comment follow.
 */
export async function landItem(deps: TickDeps, n: number, issue: QueueIssue | undefined, token: ClaimToken, stop: Stop, evidence?: Evidence): Promise<{ disposition: Disposition; summary: string } | undefined> {
  const { github, config, clock } = deps;
  const labels = config.labels;
  const { disposition, note } = dispositionFor(stop, token.epoch, config.attempts);
  const summary = note === undefined ? describeStop(stop) : `${describeStop(stop)} (${note})`;
  const now = clock.now();
  const released = await deps.store.release(
    token,
    disposition === "retry" ? { kind: "retry", notBefore: now + RETRY_BACKOFF(token.epoch) } : { kind: "settle", outcome: { ok: disposition === "ok", disposition, summary } },
    now,
  );
  const emit = journalEmitter(deps.journal, clock);
  const land = landEvent(String(n), token.epoch, evidence === undefined ? { stop } : { stop, evidence }, disposition);
  if (!released.ok) {
    emit({ ...land, fenced: `${released.reason}: ${released.detail}` });
    return undefined;
  }
  emit(land);
  emit({ event: "RELEASE", item: String(n), epoch: token.epoch });
  if (issue !== undefined) {
    const keep = issue.labels.filter((l) => l !== labels.claimed && (disposition === "retry" || l !== labels.queued));
    const add = disposition === "ok" ? [labels.done] : disposition === "human" || disposition === "refuse" ? [labels.needsHuman] : [];
    await github.setLabels(n, [...new Set([...keep, ...add])]);
    const snap = await github.snapshot(issue, true);
    if (snap.ok) await github.updateComment(snap.commentId, renderLanding(snap.body, { epoch: token.epoch, stop, disposition, at: now, by: deps.holder, ...(evidence === undefined ? {} : { evidence }) }));
  }
  return { disposition, summary };
}

