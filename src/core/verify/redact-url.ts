const SECRET_PARAM = /token|key|secret|password|passwd|sig|auth|credential/i;

/**
 * A URL fit for a log or a comment: the password in its userinfo and the values of query
 * parameters that look like credentials are replaced by `***`. Unparseable input is returned
 * with everything after `?` or `@` cut, rather than risk echoing a secret.
 *
 * @example redactUrl("https://u:p@h/v?token=x&a=1") // "https://u:***@h/v?token=***&a=1"
 */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url.replace(/[?#].*$/s, "").replace(/^([^/]*\/\/)[^/@]*@/, "$1");
  }
  if (parsed.password !== "") parsed.password = "***";
  for (const name of [...parsed.searchParams.keys()]) {
    if (SECRET_PARAM.test(name)) parsed.searchParams.set(name, "***");
  }
  return parsed.toString().replaceAll("%2A%2A%2A", "***");
}
