/**
 * A moment relative to `now`, as a maintainer reads it: `in 4 min`, `in 2 h`, `3 h ago`,
 * `just now`. Coarse on purpose: minutes under an hour, hours under two days, then days, so the
 * dashboard's text changes at most once a minute while work is in flight.
 */
export function relativeTime(at: number, now: number): string {
  const delta = at - now;
  const minutes = Math.round(Math.abs(delta) / 60_000);
  if (minutes < 1) return delta >= 0 ? "in under a minute" : "just now";
  const span = minutes < 60 ? `${minutes} min` : minutes < 48 * 60 ? `${Math.round(minutes / 60)} h` : `${Math.round(minutes / 1440)} days`;
  return delta >= 0 ? `in ${span}` : `${span} ago`;
}

/** `2026-12-01T15:58:03.120Z` as `2026-12-01 15:58 UTC`: an absolute time that reads as one. */
export function shortUtc(at: number): string {
  return new Date(at).toISOString().replace(/^(\d{4}-\d\d-\d\d)T(\d\d:\d\d).*$/, "$1 $2 UTC");
}
