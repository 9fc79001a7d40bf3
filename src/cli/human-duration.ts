/** Milliseconds as a person writes a duration, in the units the CLI accepts: `250ms`, `1s`, `90s`, `5m`, `2h`. */
export function humanDuration(ms: number): string {
  if (ms % 3_600_000 === 0 && ms > 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0 && ms > 0) return `${ms / 60_000}m`;
  if (ms % 1000 === 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}
