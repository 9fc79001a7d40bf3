const HEX = /^[0-9a-f]+$/i;
const DIGITS = /^[0-9]+$/;
const MIN_SHORT_SHA = 7;

/**
 * Whether a reported version is the expected one: equal after trimming, or — when both look like
 * commit SHAs (7 to 64 hex characters) — one is a prefix of the other (case-insensitive), because a service commonly reports a short SHA
 * while a deployment carries the full one. An all-digit longer side shorter than a whole SHA (a build
 * number, `10000001`) only ever matches exactly: `1000000` is not a short form of `10000001`.
 *
 * @example matchesVersion("abc1234", "abc1234def5678") // true
 */
export function matchesVersion(reported: string, expected: string): boolean {
  const r = reported.trim();
  const e = expected.trim();
  if (r === e) return true;
  if (!HEX.test(r) || !HEX.test(e)) return false;
  const [short, long] = r.length <= e.length ? [r, e] : [e, r];
  // A short SHA may happen to be all digits; a longer all-digit side is a build number unless it
  // has a whole SHA's length (40 or 64).
  if (short.length < MIN_SHORT_SHA || long.length > 64) return false;
  if (DIGITS.test(long) && long.length !== 40 && long.length !== 64) return false;
  return long.toLowerCase().startsWith(short.toLowerCase());
}
