/**
 * Environment variable names that hold credentials: their values are masked wherever Bosun writes.
 * (Masking only: what a command may SEE is an allowlist, `allowlisted-env.ts`.)
 */
export const SECRET_ENV_NAME = /TOKEN|SECRET|PASSWORD|PASSWD|API_KEY|PRIVATE_KEY|CREDENTIAL|(^|_)AUTH($|_)|(^|_)KEY$|DATABASE_URL/i;

// Flags and small numbers are settings, not secrets (`DISABLE_AUTH=true`): masking them would
// shred every `true` in a report and hide nothing.
const NOT_A_SECRET = /^(true|false|yes|no|on|off|null|none|\d{1,7})$/i;

/** The values of the credential-looking variables in `env`, to be redacted from logs and journals. */
export function secretValues(env: Readonly<Record<string, string | undefined>>): string[] {
  return Object.entries(env)
    .filter((e): e is [string, string] => e[1] !== undefined && e[1].length >= 4 && SECRET_ENV_NAME.test(e[0]) && !NOT_A_SECRET.test(e[1].trim()))
    .map(([, value]) => value);
}
