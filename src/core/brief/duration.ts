/**
 * The one duration parser of Bosun: briefs, configuration, `bosun drain --lease`, `bosun verify
 * --interval` and the app's tick all read durations here, so `0.2s` means the same everywhere.
 */

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * The longest duration Bosun accepts: what a Node timer can wait. `setTimeout` treats anything
 * above 2^31−1 ms (about 24.8 days) as 1 ms, so a longer budget would fire at once.
 */
export const MAX_DURATION_MS = 2 ** 31 - 1;

/** A parsed duration in whole milliseconds, or why the text is not one. */
export type DurationReading = { readonly ok: true; readonly ms: number } | { readonly ok: false; readonly problem: string };

/**
 * Reads `250ms`, `90s`, `30m`, `2h`, `1d` or a bare number of seconds (DESIGN.md, "The brief") into
 * whole milliseconds, rounded up so a positive duration never becomes 0. Refuses negative,
 * non-finite and over-long values (more than `MAX_DURATION_MS`), naming why.
 * @example readDuration("0.2s") // { ok: true, ms: 200 }
 */
export function readDuration(input: string | number): DurationReading {
  let amount: number;
  let unit = "s";
  if (typeof input === "number") {
    amount = input;
  } else {
    // Digits are bounded so a 400-digit amount is refused as text instead of becoming Infinity.
    const match = /^\s*(\d{1,15}(?:\.\d{1,9})?)\s*(ms|[smhd])?\s*$/i.exec(input);
    if (match === null) return { ok: false, problem: "is not a duration such as 250ms, 90s, 30m, 2h or a number of seconds" };
    amount = Number(match[1]);
    unit = (match[2] ?? "s").toLowerCase();
  }
  const factor = UNIT_MS[unit];
  if (factor === undefined || !Number.isFinite(amount) || amount < 0) {
    return { ok: false, problem: "is not a duration such as 250ms, 90s, 30m, 2h or a number of seconds" };
  }
  const ms = Math.ceil(amount * factor);
  if (!Number.isFinite(ms) || ms > MAX_DURATION_MS) {
    return { ok: false, problem: `is longer than 24 days (${MAX_DURATION_MS} ms), the longest a timer can wait` };
  }
  return { ok: true, ms };
}

/** `readDuration` in milliseconds, or undefined. @example parseDurationMs("250ms") === 250 */
export function parseDurationMs(input: string | number): number | undefined {
  const reading = readDuration(input);
  return reading.ok ? reading.ms : undefined;
}

/**
 * `readDuration` in whole seconds (rounded up: `0.5s` is 1, never 0), or undefined. Briefs and
 * configuration keep seconds.
 * @example parseDuration("30m") === 1800
 */
export function parseDuration(input: string | number): number | undefined {
  const ms = parseDurationMs(input);
  return ms === undefined ? undefined : Math.ceil(ms / 1000);
}

/** Renders seconds back in the largest unit that divides them: 1800 -> "30m". */
export function formatDuration(seconds: number): string {
  for (const [unit, factor] of [["d", 86_400], ["h", 3600], ["m", 60]] as const) {
    if (seconds >= factor && seconds % factor === 0) return `${seconds / factor}${unit}`;
  }
  return `${seconds}s`;
}
