/**
 * When a brief's `due` falls, ms: a date alone (`2026-12-05`) is the END of that day in UTC, a
 * time is taken as written. One rule for every face (the local drain and the GitHub tick).
 * @example dueTime("2026-12-05") // Date.UTC(2026, 11, 5, 23, 59, 59)
 */
export function dueTime(due: string | undefined): number | undefined {
  if (due === undefined) return undefined;
  const ms = Date.parse(due.length === 10 ? `${due}T23:59:59Z` : due);
  return Number.isNaN(ms) ? undefined : ms;
}
