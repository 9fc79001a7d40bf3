import type { AgentPreset } from "./agent-preset.js";

/** What any program needs to start and find its tools; none of it is a credential. */
export const BASE_ENV_NAMES = ["PATH", "HOME", "USER", "LOGNAME", "SHELL", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TERM", "TMPDIR"] as const;

/**
 * The runner's own credentials: never handed to an agent, whatever a preset or a workflow asks.
 * (GitHub's runner token, the Actions runtime and cache tokens, OIDC request credentials.)
 */
const RUNNER_SECRET = /^(GITHUB_TOKEN|GH_TOKEN|ACTIONS_RUNTIME_TOKEN|ACTIONS_ID_TOKEN_REQUEST_TOKEN|ACTIONS_ID_TOKEN_REQUEST_URL|ACTIONS_CACHE_URL|ACTIONS_RUNTIME_URL|ACTIONS_RESULTS_URL|INPUT_GITHUB-TOKEN|INPUT_GITHUB_TOKEN)$/i;

/** True when `name` is one of the runner's credentials. */
export function isRunnerSecret(name: string): boolean {
  return RUNNER_SECRET.test(name);
}

/**
 * The environment an agent gets (DESIGN.md, Trust boundaries 6): the base names, the preset's
 * credentials and settings by name, the names the workflow lists in `extra`, and Bosun's own
 * variables — nothing else from `env`. Throws when `extra` names a runner credential.
 *
 * @example agentEnv(claudeCode, process.env, [], { BOSUN_RESULT: "/tmp/r.json" })
 */
export function agentEnv(preset: Pick<AgentPreset, "credentials" | "settings">, env: Readonly<Record<string, string | undefined>>, extra: readonly string[], bosun: Readonly<Record<string, string>>): Record<string, string> {
  const refused = extra.filter(isRunnerSecret);
  if (refused.length > 0) throw new Error(`agent-env: ${refused.join(", ")} ${refused.length > 1 ? "are" : "is"} the runner's own credential and is never handed to an agent`);
  const names = new Set<string>([...BASE_ENV_NAMES, ...preset.credentials, ...preset.settings, ...extra]);
  const out: Record<string, string> = {};
  for (const name of names) {
    const value = env[name];
    if (value !== undefined && !isRunnerSecret(name)) out[name] = value;
  }
  return { ...out, ...bosun };
}

/** Reads a list of variable names (`A, B` or one a line); bad names are reported, not guessed. */
export function parseEnvNames(text: string, field: string): { names: string[] } | { problem: string } {
  const names = text.split(/[\s,]+/).filter((n) => n !== "");
  const bad = names.filter((n) => !/^[A-Za-z_][A-Za-z0-9_]*$/.test(n));
  if (bad.length > 0) return { problem: `${field}: not a variable name: ${bad.join(", ")}` };
  const runner = names.filter(isRunnerSecret);
  if (runner.length > 0) return { problem: `${field}: ${runner.join(", ")} is the runner's own credential and is never handed to an agent` };
  return { names };
}
