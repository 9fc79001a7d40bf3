import { parseDuration } from "../brief/duration.js";

/**
 * Parses a verify duration into milliseconds: everything `parseDuration` takes (`90s`, `30m`,
 * `2h`, a number of seconds) plus `250ms`, because probe intervals and timeouts live below a second.
 *
 * @example parseDurationMs("250ms") === 250; parseDurationMs("2m") === 120_000
 */
export function parseDurationMs(input: string): number | undefined {
  const ms = /^\s*(\d+)\s*ms\s*$/i.exec(input);
  if (ms !== null) return Number(ms[1]);
  const seconds = parseDuration(input);
  return seconds === undefined ? undefined : seconds * 1000;
}
