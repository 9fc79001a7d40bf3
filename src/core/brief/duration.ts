const UNIT_SECONDS: Readonly<Record<string, number>> = { s: 1, m: 60, h: 3600, d: 86_400 };

/**
 * Parses a brief duration into whole seconds: `90s`, `30m`, `2h`, `1d`, or a number of seconds.
 * Returns undefined for anything else (negative, empty, unknown unit), so callers name the field.
 * @example parseDuration("30m") === 1800
 */
export function parseDuration(input: string | number): number | undefined {
  if (typeof input === "number") {
    return Number.isFinite(input) && input >= 0 ? Math.round(input) : undefined;
  }
  const match = /^\s*(\d+(?:\.\d+)?)\s*([smhd]?)\s*$/i.exec(input);
  if (match === null) return undefined;
  const amount = Number(match[1]);
  const unit = (match[2] ?? "").toLowerCase() || "s";
  const factor = UNIT_SECONDS[unit];
  return factor === undefined ? undefined : Math.round(amount * factor);
}

/** Renders seconds back in the largest unit that divides them: 1800 -> "30m". */
export function formatDuration(seconds: number): string {
  for (const [unit, factor] of [["d", 86_400], ["h", 3600], ["m", 60]] as const) {
    if (seconds >= factor && seconds % factor === 0) return `${seconds / factor}${unit}`;
  }
  return `${seconds}s`;
}
