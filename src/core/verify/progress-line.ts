import type { ConvergeState, ConvergeStep } from "./converge.js";
import type { ProbeObservation } from "./probe-outcome.js";

/**
 * One progress line per probe: when, what it saw, the streak, what happens next.
 *
 * @example "[2.0s] probe 3: reports v2 — streak 3/3, verified"
 */
export function progressLine(obs: ProbeObservation, state: ConvergeState, next: ConvergeStep): string {
  const { config } = state;
  const t = `[${((obs.at - config.startedAt) / 1000).toFixed(1)}s]`;
  const seen = obs.kind === "value" ? `reports ${obs.value}` : `no version: ${obs.reason}`;
  const streak = `streak ${state.streak}/${config.consecutive}`;
  const then = next.kind === "probe" ? `next probe in ${next.waitMs} ms` : next.verdict.kind;
  return `${t} probe ${state.probes}: ${seen} — ${streak}, ${then}`;
}
