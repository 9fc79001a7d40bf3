import { allowlistedEnv, BASE_ENV_NAMES } from "./allowlisted-env.js";

/**
 * The environment for the acceptance command, which runs the head's code the gate does not trust:
 * an allowlist (BASE_ENV_NAMES plus what the workflow hands over by name), never a denylist — a
 * denylist passes every credential whose name it did not think of (`NPM_AUTH`, `DATABASE_URL`,
 * the Actions runtime's signed URLs).
 */
export function acceptanceEnv(env: Readonly<Record<string, string | undefined>>, handedOver: readonly string[] = []): Record<string, string> {
  return allowlistedEnv(env, [...BASE_ENV_NAMES, ...handedOver]);
}
