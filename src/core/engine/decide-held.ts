import type { Stop } from "../stop/stop.js";
import { describeStop } from "../stop/stop.js";
import type { Decision } from "./decision.js";
import { landingFor } from "./landing-for.js";
import type { HeldClaim, StepOptions } from "./step-state.js";

/** The decision for one held claim, or undefined when it just keeps running. */
export function decideHeld(claim: HeldClaim, now: number, options: Pick<StepOptions, "maxAttempts" | "backoffMs">): Decision | undefined {
  const lapsed = claim.leaseUntil <= now;
  const { worker } = claim;
  if (worker.kind === "ended") {
    return { kind: "land", id: claim.id, epoch: claim.epoch, revive: lapsed, landing: landingFor(worker.stop, claim.epoch, now, options, worker.evidence) };
  }
  if (worker.kind === "live") {
    // A live worker keeps its claim: two live workers never hold one item.
    if (lapsed || renewalDue(claim, now)) return { kind: "renew", id: claim.id, epoch: claim.epoch, leaseMs: claim.leaseMs, revive: lapsed };
    return undefined;
  }
  // A grant whose worker never showed by its dispatch deadline: its granter died before
  // dispatching (a live one dispatches within seconds), so it is taken back now, not at lease end.
  const stranded = claim.dispatchBy !== undefined && claim.dispatchBy <= now;
  if (!lapsed && !stranded) return undefined;
  // A lapsed lease whose worker shows no life: that attempt is spent.
  if (claim.epoch >= options.maxAttempts) return exhausted(claim.id, claim.epoch, options.maxAttempts, `the lease ran out with no sign of the worker (held by ${claim.holder})`);
  return { kind: "reclaim", id: claim.id, epoch: claim.epoch, holder: claim.holder };
}

/** A claim just granted: dispatched, or — reclaims count as attempts — sent to a human once past them. */
export function decideGrant(id: string, epoch: number, options: Pick<StepOptions, "maxAttempts">): Decision {
  return epoch > options.maxAttempts ? exhausted(id, epoch, options.maxAttempts, "granted past the attempts") : { kind: "dispatch", id, epoch };
}

/** Whether a third of a live lease has passed: leases renew from then on, not only in their last third. */
export function renewalDue(claim: Pick<HeldClaim, "leaseUntil" | "leaseMs">, now: number): boolean {
  return claim.leaseUntil - now <= (claim.leaseMs * 2) / 3;
}

/** Attempts are spent: the claim ends settled for a human, saying why and at which attempt. */
const exhausted = (id: string, epoch: number, maxAttempts: number, why: string): Decision => {
  const stop: Stop = { kind: "failed", failure: "unclassified", reason: `${why} (attempt ${epoch}, limit ${maxAttempts})` };
  const note = `attempts exhausted (${maxAttempts})`;
  const summary = `${describeStop(stop)} (${note})`;
  return { kind: "settle-to-human", id, epoch, landing: { stop, disposition: "human", summary, note, mode: { kind: "settle", outcome: { ok: false, disposition: "human", summary } } } };
};
