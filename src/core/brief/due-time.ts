/**
 * When a brief's `due` falls, ms: a date alone (`2026-12-05`) is the END of that day in UTC; a
 * time with no zone is UTC too (never the reading host's local time, so a drain and the App's
 * server agree); a time with a zone is taken as written. One rule for every face.
 * @example dueTime("2026-12-05") // Date.UTC(2026, 11, 5, 23, 59, 59)
 * @example dueTime("2026-12-05 10:00") // Date.UTC(2026, 11, 5, 10, 0)
 */
export function dueTime(due: string | undefined): number | undefined {
  if (due === undefined) return undefined;
  if (due.length === 10) return parsed(`${due}T23:59:59Z`);
  const m = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)(Z|[+-]\d{2}:?\d{2})?$/.exec(due);
  if (m === null) return parsed(due);
  const zone = m[3] === undefined ? "Z" : m[3] === "Z" ? "Z" : `${m[3].slice(0, 3)}:${m[3].slice(-2)}`;
  return parsed(`${m[1]}T${m[2]}${zone}`);
}

function parsed(text: string): number | undefined {
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
}
