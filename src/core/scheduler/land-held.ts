import { settleIn } from "../budget/claim-spend.js";
import type { ClaimRecord, RecordedLanding } from "../claims/claim-record.js";
import { inReview, released, settled } from "../claims/record-transitions.js";
import type { LandingDecision } from "../engine/decision.js";
import type { RunCost } from "../journal/run-cost.js";
import { describeStop } from "../stop/stop.js";
import { markStatus } from "./status-comment.js";

/**
 * The record a held claim becomes when its worker's run ends (docs/lifecycle.md), decided once by
 * whoever lands it — the tick, a run's own land job, a person's `/bosun land` — and read back by
 * everyone else: done with the item's pull request open (or merged) is "PR open, gate pending";
 * done with no pull request goes to a human (a person's landing may vouch without one:
 * `vouched`); a retry goes back to the queue after its backoff; anything else ends for a human.
 * The money its grant reserved is settled in the same record: what the run reported, else kept as spent.
 */
export function landHeld(held: ClaimRecord, landing: LandingDecision, ctx: { readonly holder: string; readonly now: number; readonly pull?: number; readonly run?: number; readonly cost?: RunCost; readonly vouched?: boolean }): ClaimRecord {
  // The cost the run reported replaces its reservation; none reported keeps the reservation as spent.
  const r = settleIn(held, held.epoch, ctx.cost?.usd);
  return markStatus(r, landed(r, landing, ctx));
}

function landed(r: ClaimRecord, landing: LandingDecision, ctx: Parameters<typeof landHeld>[2]): ClaimRecord {
  const recorded: RecordedLanding = { stop: landing.stop, disposition: landing.disposition, summary: landing.summary, ...(landing.evidence === undefined ? {} : { evidence: landing.evidence }), ...(ctx.cost === undefined ? {} : { cost: ctx.cost }), by: ctx.holder, ...(ctx.run === undefined ? {} : { run: ctx.run }) };
  if (landing.disposition !== "ok") return released(r, landing.mode, ctx.now, recorded);
  if (ctx.pull !== undefined) return inReview(r, ctx.now, ctx.pull, { ...recorded, disposition: "review" });
  if (ctx.vouched === true) return settled(r, ctx.holder, ctx.now, { ok: true, disposition: "ok", summary: landing.summary }, recorded);
  const stop = { kind: "blocked" as const, reason: `${describeStop(landing.stop)}, but no pull request for the item was found` };
  return settled(r, ctx.holder, ctx.now, { ok: false, disposition: "human", summary: describeStop(stop) }, { ...recorded, stop, disposition: "human", summary: describeStop(stop) });
}
