import type { ClaimBatch } from "../../adapters/github/claim-batch.js";
import { decideStep, type StepOptions } from "../../core/engine/decide-step.js";
import type { InFlightView, TickDeps } from "./reconcile-tick.js";
import type { WrittenTick } from "./apply-tick-effects.js";
import type { TickFacts } from "./read-tick-facts.js";

/** What the tick planned for the claims it found held, and what stays in flight. */
export interface HeldPlan {
  readonly reclaims: WrittenTick["reclaims"][number][];
  readonly lands: WrittenTick["lands"][number][];
  /** Lapsed leases renewed because their worker still visibly ran. */
  readonly revived: number[];
  /** Claims that stay held after this tick, in the report's shape (the dispatches add theirs). */
  readonly inFlight: InFlightView[];
  /** The brief id of every item still in flight (undefined when its snapshot could not be read). */
  readonly liveIds: Map<number, string | undefined>;
}

/**
 * The one step judges every claim held — land, renew, reclaim, or settle for a human — and each
 * decision is planned into the tick's batch; nothing is written here. A landing that settles its
 * item is added to `facts.settled`, so the queue does not offer it again in the same tick.
 */
export async function planHeldClaims(deps: TickDeps, batch: ClaimBatch, facts: Pick<TickFacts, "held" | "settled">, now: number, rules: StepOptions): Promise<HeldPlan> {
  const { github, store } = deps;
  const { held, settled } = facts;
  const reclaims: HeldPlan["reclaims"] = [];
  const lands: HeldPlan["lands"] = [];
  const revived: number[] = [];
  const inFlight: InFlightView[] = [];
  const liveIds = new Map<number, string | undefined>();

  const heldById = new Map(held.map((h) => [h.claim.id, h]));
  const ending = new Set<string>();
  for (const d of decideStep({ now, held: held.map((h) => h.claim), ready: [] }, rules)) {
    if (d.kind === "idle" || d.kind === "claim" || d.kind === "dispatch") continue;
    const h = heldById.get(d.id);
    if (h === undefined) continue;
    if (d.kind === "reclaim") {
      const taken = await store.planReclaim(batch, h.ref);
      if (taken !== undefined) {
        reclaims.push({ n: h.n, holder: taken.holder, epoch: taken.epoch });
        ending.add(d.id);
      }
      continue;
    }
    const token = await store.adopt(h.record.key);
    if (token === undefined || token.epoch !== d.epoch) continue;
    if (d.kind === "renew") {
      if ((await store.planRenew(batch, token, d.leaseMs, d.revive)).ok && d.revive) revived.push(h.n);
      continue;
    }
    if (d.kind === "settle-to-human") {
      if ((await store.planReclaim(batch, h.ref, d.landing.mode.outcome)) === undefined) continue;
    } else {
      // A lapsed claim nobody took back, whose own run ended: revived and landed in one compare-and-swap.
      if (d.revive && !(await store.planRenew(batch, token, h.claim.leaseMs, true)).ok) continue;
      if (!(await store.planRelease(batch, token, d.landing.mode)).ok) continue;
    }
    // Landed from its run's end, with the claim still held: the run's own land job did not land it.
    // One whose run failed may have posted its record and then failed to write the land (that
    // fails the run), so its record is read for the cost; one whose run succeeded had no Bosun land
    // job (a workflow of its own, which posts none), and costs no request.
    const readRecord = h.run?.status === "completed" && h.run.conclusion !== "success";
    lands.push({ n: h.n, issue: h.issue, token, landing: d.landing, ...(readRecord && h.run !== undefined ? { run: h.run } : {}) });
    if (d.landing.disposition !== "retry") settled.set(h.n, { ok: d.landing.disposition === "ok" });
    ending.add(d.id);
  }
  for (const h of held) {
    if (ending.has(h.claim.id)) continue;
    const snap = h.issue === undefined ? undefined : await github.snapshot(h.issue, true);
    liveIds.set(h.n, snap?.ok === true ? snap.snapshot.brief.id : undefined);
    inFlight.push({ issue: h.n, title: h.issue?.title ?? `#${h.n}`, pool: h.claim.pool, holder: h.record.holder, epoch: h.record.epoch, leaseUntil: h.record.leaseUntil, ...(h.record.grantedAt === undefined ? {} : { grantedAt: h.record.grantedAt }) });
  }
  return { reclaims, lands, revived, inFlight, liveIds };
}
