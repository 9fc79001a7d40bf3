/**
 * One job of a workflow file as the player runs it: a job of steps, or a job that calls a reusable
 * workflow (`uses:` with `with:`, `secrets:`), either of them with a `strategy.matrix`.
 * https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-syntax#jobsjob_iduses
 */
import { isObj, list, permissions, strings, WorkflowError, type PermissionsSpec } from "./workflow-error.js";

export interface StepSpec {
  readonly id?: string;
  readonly name?: string;
  readonly uses?: string;
  readonly run?: string;
  readonly shell?: string;
  readonly with: Readonly<Record<string, string>>;
  readonly env: Readonly<Record<string, string>>;
  readonly if?: string | boolean;
  readonly continueOnError: boolean | string;
  readonly workingDirectory?: string;
}

/** `strategy:` as written; the matrix (a map, or one expression) is evaluated when the job comes up. */
export interface StrategySpec {
  readonly matrix: unknown;
  /** Default true, as on GitHub; may be an expression. */
  readonly failFast: boolean | string;
}

/** A YAML scalar as written: a called workflow's inputs are typed (string, number, boolean). */
export type Scalar = string | number | boolean;

export interface JobSpec {
  readonly id: string;
  readonly name?: string;
  readonly needs: readonly string[];
  readonly if?: string | boolean;
  readonly environment?: { readonly name: string; readonly url?: string };
  readonly permissions?: PermissionsSpec;
  readonly outputs: Readonly<Record<string, string>>;
  readonly env: Readonly<Record<string, string>>;
  /** Empty for a job that calls a reusable workflow. */
  readonly steps: readonly StepSpec[];
  readonly continueOnError: boolean;
  readonly strategy?: StrategySpec;
  /** A reusable workflow this job calls (`./.github/workflows/x.yml`). */
  readonly uses?: string;
  /** The calling job's `with:`, the called workflow's inputs. */
  readonly callWith: Readonly<Record<string, Scalar>>;
  /** The calling job's `secrets:`: `inherit`, a map of expressions, or none. */
  readonly callSecrets?: "inherit" | Readonly<Record<string, string>>;
}

const JOB_KEYS = new Set(["name", "needs", "if", "runs-on", "environment", "permissions", "outputs", "env", "steps", "timeout-minutes", "concurrency", "continue-on-error", "defaults", "strategy"]);
// GitHub allows only these keys on a job that calls a reusable workflow ("Supported keywords for jobs that call a reusable workflow").
const CALL_KEYS = new Set(["name", "uses", "with", "secrets", "strategy", "needs", "if", "concurrency", "permissions"]);
const STEP_KEYS = new Set(["id", "name", "uses", "run", "shell", "with", "env", "if", "continue-on-error", "working-directory", "timeout-minutes"]);

function step(path: string, job: string, index: number, raw: unknown): StepSpec {
  const where = `jobs.${job}.steps[${index}]`;
  if (!isObj(raw)) throw new WorkflowError(path, `${where} must be a map`);
  const unknown = Object.keys(raw).filter((k) => !STEP_KEYS.has(k));
  if (unknown.length > 0) throw new WorkflowError(path, `${where}: unknown key ${unknown.join(", ")}`);
  if ((raw["uses"] === undefined) === (raw["run"] === undefined)) throw new WorkflowError(path, `${where} needs exactly one of uses and run`);
  const cond = raw["if"];
  return {
    ...(raw["id"] === undefined ? {} : { id: String(raw["id"]) }),
    ...(raw["name"] === undefined ? {} : { name: String(raw["name"]) }),
    ...(raw["uses"] === undefined ? {} : { uses: String(raw["uses"]) }),
    ...(raw["run"] === undefined ? {} : { run: String(raw["run"]) }),
    ...(raw["shell"] === undefined ? {} : { shell: String(raw["shell"]) }),
    ...(raw["working-directory"] === undefined ? {} : { workingDirectory: String(raw["working-directory"]) }),
    with: strings(path, `${where}.with`, raw["with"]),
    env: strings(path, `${where}.env`, raw["env"]),
    ...(cond === undefined ? {} : { if: typeof cond === "boolean" ? cond : String(cond) }),
    continueOnError: typeof raw["continue-on-error"] === "string" ? raw["continue-on-error"] : raw["continue-on-error"] === true,
  };
}

function strategy(path: string, id: string, raw: unknown): StrategySpec | undefined {
  if (raw === undefined) return undefined;
  if (!isObj(raw)) throw new WorkflowError(path, `jobs.${id}.strategy must be a map`);
  const bad = Object.keys(raw).filter((k) => !["matrix", "fail-fast", "max-parallel"].includes(k));
  if (bad.length > 0) throw new WorkflowError(path, `jobs.${id}.strategy: unknown key ${bad.join(", ")}`);
  if (raw["matrix"] === undefined) throw new WorkflowError(path, `jobs.${id}.strategy needs a matrix`);
  const failFast = raw["fail-fast"];
  return { matrix: raw["matrix"], failFast: typeof failFast === "string" ? failFast : failFast !== false };
}

function callWith(path: string, id: string, raw: unknown): Record<string, Scalar> {
  if (raw === undefined || raw === null) return {};
  if (!isObj(raw)) throw new WorkflowError(path, `jobs.${id}.with must be a map`);
  return Object.fromEntries(
    Object.entries(raw).map(([k, v]) => {
      if (typeof v === "object" && v !== null) throw new WorkflowError(path, `jobs.${id}.with.${k} must be a string, number or boolean`);
      return [k, typeof v === "number" || typeof v === "boolean" ? v : v === null ? "" : String(v)];
    }),
  );
}

export function parseJob(path: string, id: string, raw: unknown): JobSpec {
  if (!isObj(raw)) throw new WorkflowError(path, `jobs.${id} must be a map`);
  const calls = raw["uses"] !== undefined;
  const bad = Object.keys(raw).filter((k) => !(calls ? CALL_KEYS : JOB_KEYS).has(k));
  if (bad.length > 0) throw new WorkflowError(path, `jobs.${id}: unknown key ${bad.join(", ")}${calls ? " (a job that calls a reusable workflow takes only name, uses, with, secrets, strategy, needs, if, concurrency, permissions)" : ""}`);
  if (!calls && !Array.isArray(raw["steps"])) throw new WorkflowError(path, `jobs.${id} needs steps (a list) or uses (a reusable workflow)`);
  const env = raw["environment"];
  const environment = env === undefined ? undefined : isObj(env) ? { name: String(env["name"]), ...(env["url"] === undefined ? {} : { url: String(env["url"]) }) } : { name: String(env) };
  const perms = permissions(path, `jobs.${id}`, raw["permissions"]);
  const cond = raw["if"];
  const strat = strategy(path, id, raw["strategy"]);
  const secrets = raw["secrets"];
  if (secrets !== undefined && secrets !== "inherit" && !isObj(secrets)) throw new WorkflowError(path, `jobs.${id}.secrets must be inherit or a map`);
  return {
    id,
    ...(raw["name"] === undefined ? {} : { name: String(raw["name"]) }),
    needs: list(raw["needs"]) ?? [],
    ...(cond === undefined ? {} : { if: typeof cond === "boolean" ? cond : String(cond) }),
    ...(environment === undefined ? {} : { environment }),
    ...(perms === undefined ? {} : { permissions: perms }),
    outputs: strings(path, `jobs.${id}.outputs`, raw["outputs"]),
    env: strings(path, `jobs.${id}.env`, raw["env"]),
    steps: calls ? [] : (raw["steps"] as unknown[]).map((s, i) => step(path, id, i, s)),
    continueOnError: raw["continue-on-error"] === true,
    ...(strat === undefined ? {} : { strategy: strat }),
    ...(calls ? { uses: String(raw["uses"]) } : {}),
    callWith: callWith(path, id, raw["with"]),
    ...(secrets === undefined ? {} : { callSecrets: secrets === "inherit" ? "inherit" : strings(path, `jobs.${id}.secrets`, secrets) }),
  };
}
