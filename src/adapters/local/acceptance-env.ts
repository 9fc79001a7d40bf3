// The acceptance command runs the head's code, which the gate does not trust: it must not inherit
// the tokens the gate itself uses (GitHub, the reviewer's API key, the Actions runtime's own).
const SECRET_NAME = /(^INPUT_)|(^ACTIONS_(RUNTIME|ID_TOKEN_REQUEST|CACHE)_)|TOKEN|SECRET|PASSWORD|API_KEY|PRIVATE_KEY|CREDENTIAL/i;

/** The environment for the acceptance command: the given one minus anything that looks like a credential. */
export function acceptanceEnv(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined && !SECRET_NAME.test(name)) out[name] = value;
  return out;
}
