import type { Evidence } from "../../core/journal/journal-event.js";
import type { Disposition, Stop } from "../../core/stop/stop.js";
import { describeStop, dispositionOf } from "../../core/stop/stop.js";
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
  let disposition = dispositionOf(stop);
  let summary = describeStop(stop);
  if (disposition === "retry" && token.epoch >= config.attempts) {
    disposition = "human";
    summary = `${summary} (attempts exhausted: ${config.attempts})`;
  }
  const now = clock.now();
  const released = await deps.store.release(
    token,
    disposition === "retry" ? { kind: "retry", notBefore: now + Math.min(300_000, 1000 * 2 ** token.epoch) } : { kind: "settle", outcome: { ok: disposition === "ok", disposition, summary } },
    now,
  );
  const base = { v: 1 as const, t: new Date(now).toISOString(), event: "LAND" as const, item: String(n), epoch: token.epoch, ok: disposition === "ok", stop: { kind: stop.kind, ...("limit" in stop ? { limit: stop.limit } : {}), ...(stop.reason === undefined ? {} : { reason: stop.reason }) }, ...(stop.kind === "failed" ? { failure: stop.failure } : {}), disposition, ...(evidence === undefined ? {} : { evidence }) };
  if (!released.ok) {
    deps.journal.append({ ...base, fenced: `${released.reason}: ${released.detail}` });
    return undefined;
  }
  deps.journal.append(base);
  deps.journal.append({ v: 1, t: base.t, event: "RELEASE", item: String(n), epoch: token.epoch });
  if (issue !== undefined) {
    const keep = issue.labels.filter((l) => l !== labels.claimed && (disposition === "retry" || l !== labels.queued));
    const add = disposition === "ok" ? [labels.done] : disposition === "human" || disposition === "refuse" ? [labels.needsHuman] : [];
    await github.setLabels(n, [...new Set([...keep, ...add])]);
    const snap = await github.snapshot(issue, true);
    if (snap.ok) await github.updateComment(snap.commentId, renderLanding(snap.body, { epoch: token.epoch, stop, disposition, at: now, by: deps.holder, ...(evidence === undefined ? {} : { evidence }) }));
  }
  return { disposition, summary };
}

