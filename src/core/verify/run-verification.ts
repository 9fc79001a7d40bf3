import { nextStep, observe, startConvergence } from "./converge.js";
import type { ConvergeConfig, ConvergeState, ConvergeStep, VerifyVerdict } from "./converge.js";
import type { Probe, ProbeObservation, ProbeOutcome } from "./probe-outcome.js";

/** Real or fake time, declared here by its consumer: the adapter is `systemClock`. */
export interface VerifyClock {
  /** Milliseconds since the epoch. */
  now(): number;
  sleep(ms: number): Promise<void>;
}

/** Called after every probe with what it saw and what happens next, for progress output. */
export type OnProbe = (obs: ProbeObservation, state: ConvergeState, next: ConvergeStep) => void;

/** What `runVerification` needs; `config` without `startedAt`/`deadline`, which come from the clock. */
export interface RunVerificationInput {
  readonly probe: Probe;
  readonly clock: VerifyClock;
  readonly config: Omit<ConvergeConfig, "startedAt" | "deadline"> & { readonly timeoutMs: number };
  readonly onProbe?: OnProbe;
}

/**
 * Polls `probe` until the convergence machine reaches a verdict. The loop only sequences: every
 * decision (when to probe, how long to wait, what the verdict is) comes from `nextStep`.
 */
export async function runVerification(input: RunVerificationInput): Promise<VerifyVerdict> {
  const { probe, clock, onProbe } = input;
  const { timeoutMs, ...rest } = input.config;
  const startedAt = clock.now();
  let state = startConvergence({ ...rest, startedAt, deadline: startedAt + timeoutMs });
  let step = nextStep(state, startedAt);
  while (step.kind === "probe") {
    if (step.waitMs > 0) await clock.sleep(step.waitMs);
    const at = clock.now();
    const outcome = await probeSafely(probe, step.timeoutMs);
    const obs: ProbeObservation = { ...outcome, at, durationMs: Math.max(0, clock.now() - at) };
    state = observe(state, obs);
    step = nextStep(state, clock.now());
    onProbe?.(obs, state, step);
  }
  return step.verdict;
}

/** A probe should answer with an outcome; one that throws is could-not-check, not a crash. */
async function probeSafely(probe: Probe, timeoutMs: number): Promise<ProbeOutcome> {
  try {
    return await probe(timeoutMs);
  } catch (err) {
    return { kind: "unreachable", code: "network", reason: err instanceof Error ? err.message : String(err) };
  }
}
