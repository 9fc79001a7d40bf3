import type { ActionIo } from "./action-io.js";
import { listInput } from "./list-input.js";
import { RUNNER_ONLY_NAME } from "../adapters/local/allowlisted-env.js";

/** A bad input value: the message names the input, what it got and what it accepts. */
export class ActionInputError extends Error {
  constructor(
    readonly input: string,
    message: string,
  ) {
    super(`input '${input}': ${message}`);
    this.name = "ActionInputError";
  }
}

// The YAML 1.2 core schema's booleans, as @actions/core's getBooleanInput accepts them.
const TRUE = ["true", "True", "TRUE"];
const FALSE = ["false", "False", "FALSE"];

/**
 * A boolean input; unset (or blank) is `fallback`. Anything but the YAML 1.2 core booleans is an
 * error: `no`, `off` or `0` silently read as true would run what the user meant to turn off.
 */
export function booleanInput(io: ActionIo, name: string, fallback: boolean): boolean {
  const raw = io.input(name).trim();
  if (raw === "") return fallback;
  if (TRUE.includes(raw)) return true;
  if (FALSE.includes(raw)) return false;
  throw new ActionInputError(name, `'${raw}' is not a boolean; use true or false (also True, TRUE, False, FALSE)`);
}

/** An amount of US dollars above 0 (`2.5`); unset (or blank) is none. `$2`, `-1`, `0` or `1e3` are errors. */
export function usdInput(io: ActionIo, name: string): { usd?: number } {
  const raw = io.input(name).trim();
  if (raw === "") return {};
  const usd = /^\d+(?:\.\d+)?$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isFinite(usd) || usd <= 0) throw new ActionInputError(name, `'${raw.slice(0, 40)}' is not an amount of US dollars above 0 (such as 2.5)`);
  return { usd };
}

/** A whole-number input within [min, max]; unset (or blank) is `fallback`. `abc`, `1.5` or `1e3` are errors. */
export function integerInput(io: ActionIo, name: string, range: { fallback: number; min: number; max?: number }): number {
  const raw = io.input(name).trim();
  if (raw === "") return range.fallback;
  const max = range.max ?? Number.MAX_SAFE_INTEGER;
  const value = /^[+-]?\d+$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < range.min || value > max) {
    throw new ActionInputError(name, `'${raw}' is not a whole number${range.max === undefined ? ` of at least ${range.min}` : ` from ${range.min} to ${max}`}`);
  }
  return value;
}

/**
 * The token a mode talks to GitHub with: `github-token` (whose action.yml default is the job's
 * `github.token`), unless the deprecated alias `token` is set — then that, with a warning: someone
 * who wrote `token:` meant it, and the default of `github-token` would otherwise always win.
 * Returns '' when neither is set and the environment has no GITHUB_TOKEN.
 */
export function tokenInput(io: ActionIo): string {
  const alias = io.input("token").trim();
  if (alias !== "") {
    io.log.warning("bosun: input 'token' is deprecated; use 'github-token' (set only one of them)");
    return alias;
  }
  return io.input("github-token").trim() || (io.env["GITHUB_TOKEN"] ?? "").trim();
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The environment variable names a workflow hands to the commands Bosun runs (input `pass-env`,
 * one a line or comma-separated). The runner's own credentials are refused by name, so a workflow
 * cannot hand them over by mistake.
 */
export function passEnvInput(io: ActionIo): string[] {
  const names = listInput(io, "pass-env");
  for (const name of names) {
    if (!ENV_NAME.test(name)) throw new ActionInputError("pass-env", `'${name}' is not an environment variable name`);
    if (RUNNER_ONLY_NAME.test(name)) throw new ActionInputError("pass-env", `${name} is the runner's own (its token, the Actions runtime's credentials, the step's inputs or a file command) and is never handed to the code Bosun runs`);
  }
  return names;
}
