/** An ISO 8601 time from GitHub as milliseconds, or undefined when it is missing or not a time. */
export function timeOf(iso: string | null | undefined): number | undefined {
  const ms = Date.parse(iso ?? "");
  return Number.isFinite(ms) ? ms : undefined;
}
