import type { ReleaseMode } from "../claims/claim-token.js";
import type { Evidence } from "../journal/journal-event.js";
import type { Stop } from "../stop/stop.js";
import { describeStop } from "../stop/stop.js";
import { dispositionFor } from "../stop/disposition-for.js";
import type { LandingDecision } from "./decision.js";
import type { StepOptions } from "./step-state.js";

/** The landing of a stop at an attempt: a retryable failure past the attempts goes to a human; one backoff for every face. */
export function landingFor(stop: Stop, epoch: number, now: number, options: Pick<StepOptions, "maxAttempts" | "backoffMs">, evidence?: Evidence): LandingDecision {
  const { disposition, note } = dispositionFor(stop, epoch, options.maxAttempts);
  const summary = note === undefined ? describeStop(stop) : `${describeStop(stop)} (${note})`;
  const mode: ReleaseMode = disposition === "retry" ? { kind: "retry", notBefore: now + options.backoffMs(epoch) } : { kind: "settle", outcome: { ok: disposition === "ok", disposition, summary } };
  // Built without spreads: the local drain lands one of these per item.
  const landing: { -readonly [K in keyof LandingDecision]: LandingDecision[K] } = { stop, disposition, summary, mode };
  if (note !== undefined) landing.note = note;
  if (evidence !== undefined) landing.evidence = evidence;
  return landing;
}
