/** Environment variable names that hold credentials: their values are masked wherever Bosun writes. */
export const SECRET_ENV_NAME = /TOKEN|SECRET|PASSWORD|PASSWD|API_KEY|PRIVATE_KEY|CREDENTIAL/i;

/** The values of the credential-looking variables in `env`, to be redacted from logs and journals. */
export function secretValues(env: Readonly<Record<string, string | undefined>>): string[] {
  return Object.entries(env)
    .filter((e): e is [string, string] => e[1] !== undefined && e[1].length >= 4 && SECRET_ENV_NAME.test(e[0]))
    .map(([, value]) => value);
}
