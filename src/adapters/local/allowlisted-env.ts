/**
 * What any command Bosun runs gets from the runner's environment without being asked: enough to
 * find programs, write temp files, print text and know it runs in CI — no value anyone guards.
 */
export const BASE_ENV_NAMES: readonly string[] = [
  "PATH", "HOME", "USER", "LOGNAME", "SHELL", "LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "TZ", "TERM",
  "TMPDIR", "TEMP", "TMP", "CI", "GITHUB_ACTIONS", "RUNNER_OS", "RUNNER_ARCH", "RUNNER_TEMP", "RUNNER_TOOL_CACHE",
  "GITHUB_WORKSPACE", "GITHUB_REPOSITORY", "GITHUB_SHA", "GITHUB_REF", "GITHUB_EVENT_NAME", "GITHUB_SERVER_URL", "GITHUB_RUN_ID",
];

/**
 * Names that are never handed over, even when a workflow names them: the runner's token, the
 * Actions runtime's credentials and signed URLs (`ACTIONS_*`), the step's inputs (`INPUT_*`, which
 * hold `github-token` and API keys), and the file commands through which a command could change the
 * environment or outputs of later steps.
 */
export const RUNNER_ONLY_NAME = /^(GITHUB_TOKEN|ACTIONS_.*|INPUT_.*|GITHUB_(ENV|OUTPUT|PATH|STATE|STEP_SUMMARY))$/i;

/**
 * The entries of `env` whose names are listed, nothing else (and never a RUNNER_ONLY_NAME).
 * @example allowlistedEnv({ PATH: "/bin", GITHUB_TOKEN: "t" }, ["PATH", "GITHUB_TOKEN"]) // { PATH: "/bin" }
 */
export function allowlistedEnv(env: Readonly<Record<string, string | undefined>>, names: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of new Set(names)) {
    const value = env[name];
    if (value !== undefined && !RUNNER_ONLY_NAME.test(name)) out[name] = value;
  }
  return out;
}
