const SHA_LIKE = /^[0-9a-f]{7,64}$/i;

/**
 * Whether a reported version is the expected one: equal after trimming, or — when both look like
 * commit SHAs — one is a prefix of the other (case-insensitive), because a service commonly
 * reports a short SHA while a deployment carries the full one.
 *
 * @example matchesVersion("abc1234", "abc1234def5678") // true
 */
export function matchesVersion(reported: string, expected: string): boolean {
  const r = reported.trim();
  const e = expected.trim();
  if (r === e) return true;
  if (!SHA_LIKE.test(r) || !SHA_LIKE.test(e)) return false;
  const [short, long] = r.length <= e.length ? [r, e] : [e, r];
  return long.toLowerCase().startsWith(short.toLowerCase());
}
