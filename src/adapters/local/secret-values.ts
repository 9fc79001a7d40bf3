/**
 * Environment variable names that hold credentials: their values are masked wherever Bosun writes.
 * (Masking only: what a command may SEE is an allowlist, `allowlisted-env.ts`.)
 */
export const SECRET_ENV_NAME = /TOKEN|SECRET|PASSWORD|PASSWD|API_KEY|PRIVATE_KEY|CREDENTIAL|(^|_)AUTH($|_)|(^|_)KEY$|DATABASE_URL/i;

/** The values of the credential-looking variables in `env`, to be redacted from logs and journals. */
export function secretValues(env: Readonly<Record<string, string | undefined>>): string[] {
  return Object.entries(env)
    .filter((e): e is [string, string] => e[1] !== undefined && e[1].length >= 4 && SECRET_ENV_NAME.test(e[0]))
    .map(([, value]) => value);
}
