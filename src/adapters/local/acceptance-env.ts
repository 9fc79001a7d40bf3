import { SECRET_ENV_NAME } from "./secret-values.js";

// The acceptance command runs the head's code, which the gate does not trust: it must not inherit
// the tokens the gate itself uses (GitHub, the reviewer's API key, the Actions runtime's own).
// Beyond the names that hold credentials anywhere, the Actions runtime's own variables and inputs.
const SECRET_NAME = new RegExp(`(^INPUT_)|(^ACTIONS_(RUNTIME|ID_TOKEN_REQUEST|CACHE)_)|${SECRET_ENV_NAME.source}`, "i");

/** The environment for the acceptance command: the given one minus anything that looks like a credential. */
export function acceptanceEnv(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined && !SECRET_NAME.test(name)) out[name] = value;
  return out;
}
