import { backoffDelay } from "./backoff-delay.js";
import type { BackoffPolicy } from "./backoff-delay.js";
import { matchesVersion } from "./match-version.js";
import type { ProbeFailureCode, ProbeObservation } from "./probe-outcome.js";

/** Everything the convergence decision depends on; times are ms since the epoch. */
export interface ConvergeConfig {
  readonly expected: string;
  /** K: how many consecutive probes must report the expected version. */
  readonly consecutive: number;
  readonly startedAt: number;
  readonly deadline: number;
  /** Pause between probes that got an answer. */
  readonly intervalMs: number;
  /** Upper bound for one probe. */
  readonly attemptTimeoutMs: number;
  /** Pause after probes that got no answer, growing with each one in a row. */
  readonly backoff: BackoffPolicy;
  readonly seed: number;
}

/** The verdict-in-progress: a fold over every observation so far. */
export interface ConvergeState {
  readonly config: ConvergeConfig;
  readonly probes: number;
  /** Probes that reported some version. */
  readonly answered: number;
  /** Consecutive most recent probes reporting the expected version. */
  readonly streak: number;
  readonly bestStreak: number;
  readonly expectedSeen: number;
  readonly failuresInARow: number;
  /** Each distinct version reported, with how often, in order of first sighting. */
  readonly seen: readonly { readonly value: string; readonly count: number }[];
  readonly lastValue: string | undefined;
  /** The last reported version that was not the expected one. */
  readonly lastOther: string | undefined;
  readonly lastFailure: { readonly code: ProbeFailureCode; readonly reason: string } | undefined;
  /** The most recent observations, kept as evidence. */
  readonly recent: readonly ProbeObservation[];
}

/** What the target was seen doing, attached to every verdict. */
export interface VerifyEvidence {
  readonly expected: string;
  readonly consecutive: number;
  readonly probes: number;
  readonly answered: number;
  readonly bestStreak: number;
  readonly seen: ConvergeState["seen"];
  readonly elapsedMs: number;
  readonly recent: readonly ProbeObservation[];
}

/** The three honest outcomes (DESIGN.md principle 4): passed, failed, could-not-check. */
export type VerifyVerdict =
  | { readonly kind: "verified"; readonly value: string; readonly reason: string; readonly evidence: VerifyEvidence }
  | {
      readonly kind: "mismatch";
      /** The version the target reported instead (for flapping: the other version it kept returning to). */
      readonly reported: string;
      readonly flapping: boolean;
      readonly reason: string;
      readonly evidence: VerifyEvidence;
    }
  | {
      readonly kind: "unreachable";
      readonly code: ProbeFailureCode;
      readonly reason: string;
      readonly evidence: VerifyEvidence;
    };

/** Either probe again after `waitMs` (bounded by `timeoutMs`), or stop with a verdict. */
export type ConvergeStep =
  | { readonly kind: "probe"; readonly waitMs: number; readonly timeoutMs: number }
  | { readonly kind: "done"; readonly verdict: VerifyVerdict };

const RECENT = 10;
const MAX_DISTINCT = 10;
/** A probe squeezed in before the deadline still gets this long, so it is not doomed to time out. */
const MIN_PROBE_MS = 100;

/** The state before any probe. */
export function startConvergence(config: ConvergeConfig): ConvergeState {
  return {
    config,
    probes: 0,
    answered: 0,
    streak: 0,
    bestStreak: 0,
    expectedSeen: 0,
    failuresInARow: 0,
    seen: [],
    lastValue: undefined,
    lastOther: undefined,
    lastFailure: undefined,
    recent: [],
  };
}

/** Folds one observation into the state. An unreachable probe breaks a streak: K means K in a row. */
export function observe(state: ConvergeState, obs: ProbeObservation): ConvergeState {
  const recent = [...state.recent, obs].slice(-RECENT);
  const probes = state.probes + 1;
  if (obs.kind === "unreachable") {
    return {
      ...state,
      probes,
      streak: 0,
      failuresInARow: state.failuresInARow + 1,
      lastFailure: { code: obs.code, reason: obs.reason },
      recent,
    };
  }
  const isExpected = matchesVersion(obs.value, state.config.expected);
  const streak = isExpected ? state.streak + 1 : 0;
  return {
    ...state,
    probes,
    answered: state.answered + 1,
    streak,
    bestStreak: Math.max(state.bestStreak, streak),
    expectedSeen: state.expectedSeen + (isExpected ? 1 : 0),
    failuresInARow: 0,
    seen: countSeen(state.seen, obs.value),
    lastValue: obs.value,
    lastOther: isExpected ? state.lastOther : obs.value,
    recent,
  };
}

/**
 * Decides what happens next at time `now`. Verified as soon as K consecutive probes match. Before
 * the deadline a wrong or missing version means "keep polling" — a rollout shows the old version for
 * a while. The last probe starts at the deadline at the latest; after it the verdict is final (see
 * `conclude`).
 */
export function nextStep(state: ConvergeState, now: number): ConvergeStep {
  const { config } = state;
  if (state.streak >= config.consecutive) {
    return { kind: "done", verdict: verified(state, now) };
  }
  if (state.probes > 0 && now >= config.deadline) {
    return { kind: "done", verdict: conclude(state, now) };
  }
  // The last wait is cut short so one final probe lands on the deadline: a slow rollout gets every chance.
  const waitMs = state.probes === 0 ? 0 : Math.min(delayAfter(state), Math.max(0, config.deadline - now));
  const remaining = config.deadline - (now + waitMs);
  const timeoutMs = Math.max(Math.min(config.attemptTimeoutMs, remaining), Math.min(config.attemptTimeoutMs, MIN_PROBE_MS));
  return { kind: "probe", waitMs, timeoutMs };
}

/**
 * The verdict when time runs out without K in a row: `unreachable` if no probe ever got a version,
 * or if only the expected version was ever reported (then the target went silent before K in a
 * row); `mismatch` flapping if the expected version and another were seen; otherwise
 * `mismatch` naming the last version the target reported.
 */
export function conclude(state: ConvergeState, now: number): VerifyVerdict {
  const { config } = state;
  const evidence = evidenceOf(state, now);
  if (state.streak >= config.consecutive) return verified(state, now);
  if (state.answered === 0) {
    const failure = state.lastFailure ?? { code: "timeout" as const, reason: "no probe completed before the deadline" };
    return {
      kind: "unreachable",
      code: failure.code,
      reason: `no probe got a version in ${state.probes} attempt(s): ${failure.reason}`,
      evidence,
    };
  }
  const others = state.seen.filter((s) => !matchesVersion(s.value, config.expected));
  const othersText = others.map((s) => `${s.value} ×${s.count}`).join(", ");
  const failed = state.probes - state.answered;
  const failedText = failed > 0 ? `; ${failed} probe(s) got no version` : "";
  if (state.expectedSeen > 0) {
    // What the target itself reported when it matched: a short SHA is named as the target gave it.
    const matched = state.seen.filter((s) => matchesVersion(s.value, config.expected)).map((s) => s.value);
    const matchedText = `${matched.join(" / ")}${matched.length === 1 && matched[0] === config.expected ? "" : ` (matching ${config.expected})`}`;
    const runs = `reported ${matchedText} ${state.expectedSeen} time(s) but at most ${state.bestStreak} in a row (needs ${config.consecutive})`;
    if (state.lastOther === undefined) {
      // Nothing but the expected version was ever reported: the target stopped answering (or time
      // ran out) before K in a row. That is could-not-check, not a mismatch naming a version nobody saw.
      const failure = state.lastFailure ?? { code: "timeout" as const, reason: "the deadline came before enough probes" };
      return {
        kind: "unreachable",
        code: failure.code,
        reason: `${runs}, then no version in ${failed} probe(s): ${failure.reason}`,
        evidence,
      };
    }
    const also = othersText === "" ? "" : `; also reported ${othersText}`;
    return {
      kind: "mismatch",
      reported: state.lastOther,
      flapping: true,
      reason: `flapping: ${runs}${also}${failedText}`,
      evidence,
    };
  }
  const reported = state.lastValue ?? "";
  return {
    kind: "mismatch",
    reported,
    flapping: false,
    reason: `the target reports ${reported}, expected ${config.expected} (seen: ${othersText})${failedText}`,
    evidence,
  };
}

function verified(state: ConvergeState, now: number): VerifyVerdict {
  const value = state.lastValue ?? state.config.expected;
  return {
    kind: "verified",
    value,
    reason: `reported ${value} on ${state.streak} consecutive probe(s)`,
    evidence: evidenceOf(state, now),
  };
}

function delayAfter(state: ConvergeState): number {
  const { config } = state;
  if (state.failuresInARow === 0) return config.intervalMs;
  return backoffDelay(config.backoff, state.failuresInARow, config.seed);
}

function countSeen(seen: ConvergeState["seen"], value: string): ConvergeState["seen"] {
  const i = seen.findIndex((s) => s.value === value);
  if (i >= 0) return seen.map((s, j) => (j === i ? { value, count: s.count + 1 } : s));
  // Past MAX_DISTINCT a target is reporting noise (a timestamp, a request id): stop growing.
  return seen.length >= MAX_DISTINCT ? seen : [...seen, { value, count: 1 }];
}

function evidenceOf(state: ConvergeState, now: number): VerifyEvidence {
  return {
    expected: state.config.expected,
    consecutive: state.config.consecutive,
    probes: state.probes,
    answered: state.answered,
    bestStreak: state.bestStreak,
    seen: state.seen,
    elapsedMs: Math.max(0, now - state.config.startedAt),
    recent: state.recent,
  };
}
