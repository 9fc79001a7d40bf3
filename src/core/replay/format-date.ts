/**
 * A time as a person reads it, in UTC: `2026-02-26` or `2026-02-26 15:13` — no seconds, no
 * milliseconds, no `T` or `Z` (the report says once that its times are UTC).
 * @example formatDate(Date.UTC(2026, 1, 26, 15, 13, 31), "minute") === "2026-02-26 15:13"
 */
export function formatDate(ms: number, precision: "day" | "minute"): string {
  const iso = new Date(ms).toISOString();
  return precision === "day" ? iso.slice(0, 10) : `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
}

/** An ISO time from the report (or null) as a person reads it, to the minute, with its zone. */
export function readableTime(iso: string | null): string {
  if (iso === null) return "—";
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? iso : `${formatDate(ms, "minute")} UTC`;
}
