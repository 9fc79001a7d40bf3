// ISO 8601 as traces write it: 2025-10-14T06:16:29.978183+00:00, 2026-02-26T01:04:48Z, 2026-12-05.
// Hand-rolled rather than Date.parse: Date.parse accepts "March 7" and local-time forms that would
// turn a bad cell into a plausible wrong time, and this runs once per cell on million-row traces.
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?\s*(Z|[+-]\d{2}:?\d{2})?)?$/;
const DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

const GREGORIAN_CYCLE_MS = 146_097 * 86_400_000;

const leap = (y: number): boolean => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

/** Parses an ISO 8601 time to ms since the epoch (no zone means UTC); undefined when it is not one. */
export function parseTraceTime(text: string): number | undefined {
  const m = ISO.exec(text.trim());
  if (m === null) return undefined;
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = h === undefined ? 0 : Number(h);
  const minute = mi === undefined ? 0 : Number(mi);
  const second = s === undefined ? 0 : Number(s);
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return undefined;
  // Date.UTC would roll 2025-02-31 over into March; a calendar date that does not exist is malformed.
  if (day < 1 || day > (DAYS[month - 1] as number) || (month === 2 && day === 29 && !leap(year))) return undefined;
  const ms = frac === undefined ? 0 : Math.floor(Number(`0.${frac}`) * 1000);
  // Date.UTC reads years 0–99 as 1900–1999: counted 400 years on (one whole Gregorian cycle of
  // 146,097 days) and back again, a year keeps its own number.
  let t = Date.UTC(year + 400, month - 1, day, hour, minute, second, ms) - GREGORIAN_CYCLE_MS;
  if (zone !== undefined && zone !== "Z") {
    const sign = zone[0] === "-" ? -1 : 1;
    const digits = zone.slice(1).replace(":", "");
    const zoneHours = Number(digits.slice(0, 2));
    const zoneMinutes = Number(digits.slice(2, 4));
    // An offset is at most 23:59 (ISO 8601): `+99:99` once moved a time by 100 hours unseen.
    if (zoneHours > 23 || zoneMinutes > 59) return undefined;
    t -= sign * (zoneHours * 60 + zoneMinutes) * 60_000;
  }
  return t;
}
