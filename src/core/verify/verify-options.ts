import type { ConvergeConfig } from "./converge.js";
import { readDuration } from "../brief/duration.js";
import type { VersionSource } from "./read-version.js";

/** Defaults shared by `bosun verify` and the Action's verify mode (docs/verify.md). */
export const VERIFY_DEFAULTS = {
  timeout: "5m",
  interval: "1s",
  consecutive: 3,
  probeTimeout: "10s",
} as const;

/** The shortest pause between probes `bosun verify` accepts (docs/cli.md). */
export const MIN_INTERVAL_MS = 10;

/** Options as a user wrote them (flags or Action inputs); unset is undefined. */
export interface RawVerifyOptions {
  readonly url?: string | undefined;
  readonly command?: string | undefined;
  readonly expect?: string | undefined;
  readonly field?: string | undefined;
  readonly header?: string | undefined;
  readonly match?: string | undefined;
  readonly timeout?: string | undefined;
  readonly interval?: string | undefined;
  readonly consecutive?: string | undefined;
  readonly probeTimeout?: string | undefined;
  readonly seed?: string | undefined;
}

/** What to probe, validated. */
export type VerifyTargetSpec =
  | { readonly kind: "url"; readonly url: string; readonly source: VersionSource }
  | { readonly kind: "command"; readonly command: string; readonly source: VersionSource };

/** Validated options: the probe target and the convergence config for `runVerification`. */
export interface VerifyOptions {
  readonly target: VerifyTargetSpec;
  readonly config: Omit<ConvergeConfig, "startedAt" | "deadline"> & { readonly timeoutMs: number };
}

/**
 * Validates raw options into a target and a config, or every problem at once, each naming its
 * option (`flag` renders a name: `--probe-timeout` for the CLI, `probe-timeout` for the Action).
 * `fallbackSeed` is used when no seed is given — the edge passes something varying.
 */
export function parseVerifyOptions(
  raw: RawVerifyOptions,
  fallbackSeed: number,
  flag: (name: string) => string = (name) => `--${name}`,
): { readonly ok: true; readonly options: VerifyOptions } | { readonly ok: false; readonly problems: readonly string[] } {
  const problems: string[] = [];
  const set = (v: string | undefined): v is string => v !== undefined && v.trim() !== "";

  const expected = set(raw.expect) ? raw.expect.trim() : undefined;
  if (expected === undefined) problems.push(`${flag("expect")} is required: the version the target must report`);

  const sources: VersionSource[] = [];
  if (set(raw.field)) sources.push({ kind: "field", path: raw.field.trim() });
  if (set(raw.header)) sources.push({ kind: "header", name: raw.header.trim() });
  if (set(raw.match)) {
    try {
      new RegExp(raw.match);
      sources.push({ kind: "regex", pattern: raw.match });
    } catch (err) {
      problems.push(`${flag("match")} is not a valid regular expression: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  if (sources.length > 1) problems.push(`give at most one of ${flag("field")}, ${flag("header")}, ${flag("match")}`);
  const source: VersionSource = sources[0] ?? { kind: "body" };

  let target: VerifyTargetSpec | undefined;
  if (set(raw.url) && set(raw.command)) {
    problems.push(`give ${flag("url")} or ${flag("command")}, not both`);
  } else if (set(raw.url)) {
    if (!/^https?:\/\/[^\s]+$/i.test(raw.url.trim()) || !URL.canParse(raw.url.trim())) {
      problems.push(`${flag("url")} must be an http:// or https:// URL`);
    } else {
      target = { kind: "url", url: raw.url.trim(), source };
    }
  } else if (set(raw.command)) {
    if (source.kind === "header") problems.push(`${flag("header")} needs ${flag("url")}: a command has no headers`);
    target = { kind: "command", command: raw.command, source };
  } else {
    problems.push(`${flag("url")} (or ${flag("command")}) is required: what to probe`);
  }

  const duration = (name: string, value: string | undefined, fallback: string, min: number): number => {
    const text = set(value) ? value : fallback;
    const reading = readDuration(text);
    if (!reading.ok) {
      problems.push(`${flag(name)} '${text}' ${reading.problem}`);
      return 0;
    }
    if (reading.ms < min) {
      problems.push(`${flag(name)} '${text}' is ${reading.ms} ms; it must be at least ${min} ms`);
      return 0;
    }
    return reading.ms;
  };
  const timeoutMs = duration("timeout", raw.timeout, VERIFY_DEFAULTS.timeout, 0);
  // A floor, not a rounding: `0.2s` is 200 ms, and `0`, `1ms` or `0.001s` would hammer the target.
  const intervalMs = duration("interval", raw.interval, VERIFY_DEFAULTS.interval, MIN_INTERVAL_MS);
  const attemptTimeoutMs = duration("probe-timeout", raw.probeTimeout, VERIFY_DEFAULTS.probeTimeout, 1);

  const kText = set(raw.consecutive) ? raw.consecutive.trim() : String(VERIFY_DEFAULTS.consecutive);
  const consecutive = /^\d+$/.test(kText) ? Number(kText) : NaN;
  if (!Number.isInteger(consecutive) || consecutive < 1) {
    problems.push(`${flag("consecutive")} '${kText}' must be a whole number of probes, at least 1`);
  } else if (problems.length === 0 && (consecutive - 1) * intervalMs > timeoutMs) {
    problems.push(
      `${flag("timeout")} is too short: ${consecutive} consecutive probes every ${intervalMs} ms need at least ${(consecutive - 1) * intervalMs} ms`,
    );
  }

  let seed = fallbackSeed >>> 0;
  if (set(raw.seed)) {
    if (/^\d+$/.test(raw.seed.trim())) seed = Number(raw.seed.trim()) >>> 0;
    else problems.push(`${flag("seed")} '${raw.seed}' must be a whole number`);
  }

  if (problems.length > 0 || expected === undefined || target === undefined) return { ok: false, problems };
  return {
    ok: true,
    options: {
      target,
      config: {
        expected,
        consecutive,
        timeoutMs,
        intervalMs,
        attemptTimeoutMs,
        // Retries after no answer start at the interval and double, capped so a recovered target is noticed soon.
        backoff: { baseMs: Math.max(1, intervalMs), factor: 2, maxMs: Math.max(intervalMs, Math.min(30_000, intervalMs * 8)), jitter: 0.5 },
        seed,
      },
    },
  };
}
