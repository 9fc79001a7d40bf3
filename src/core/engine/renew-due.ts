import type { ClaimStore } from "../claims/claim-store.js";
import type { HeldClaim, StepOptions } from "./decide-step.js";
import { decideStep } from "./decide-step.js";
import type { Flight } from "./flight.js";
import { heldClaim } from "./flight.js";

/**
 * Renews leases once a third of them has passed (the step decides); a worker whose claim is lost
 * is told to stop. Each flight renewed gets its new token and its next renewal time in place.
 */
export async function renewDue<P>(inflight: ReadonlyMap<string, Flight<P>>, claims: ClaimStore, step: StepOptions, leaseMs: number, now: number): Promise<void> {
  const due: HeldClaim[] = [];
  for (const flight of inflight.values()) if (flight.renewAt <= now) due.push(heldClaim(flight, leaseMs, { kind: "live" }));
  if (due.length === 0) return;
  for (const d of decideStep({ now, held: due, ready: [] }, step)) {
    if (d.kind !== "renew") continue;
    const flight = inflight.get(d.id) as Flight<P>;
    flight.renewAt = now + leaseMs / 3;
    let renewed;
    try {
      renewed = await claims.renew(flight.token, d.leaseMs, now);
    } catch {
      continue; // try again at the next renewal; the lease still has two thirds to run
    }
    if (renewed.ok) flight.token = renewed.token;
    else flight.control.abort(new Error(`claim lost: ${renewed.detail}`));
  }
}
