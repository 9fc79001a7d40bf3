const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const WITH_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})$/;
const DAY_MS = 86_400_000;

/**
 * A `--since`/`--until` value as ms since the epoch, or undefined when it is not a date. A bare
 * date is a whole UTC day: `since` starts at its midnight, `until` ends at the next one, so
 * `--since 2026-11-01 --until 2026-11-30` is all of November. A time must carry its zone (`Z`,
 * `+02:00`): without one it would mean the reader's local time, which differs between machines.
 * @example parseWindowBound("2026-11-30", "until") === Date.UTC(2026, 11, 1)
 */
export function parseWindowBound(text: string, bound: "since" | "until"): number | undefined {
  const value = text.trim();
  if (DATE_ONLY.test(value)) {
    const ms = Date.parse(`${value}T00:00:00Z`);
    if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== value) return undefined;
    return bound === "since" ? ms : ms + DAY_MS;
  }
  if (!WITH_ZONE.test(value)) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}
