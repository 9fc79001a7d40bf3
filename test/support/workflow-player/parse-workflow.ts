/**
 * A workflow file as the player runs it, read with the `yaml` package and checked for the shapes
 * the player understands. Keys GitHub has but the player ignores are named in README.md
 * (`concurrency`, `timeout-minutes`, `runs-on`, `defaults`); anything else unknown is an error.
 */
import { parse } from "yaml";

export type ScopeLevel = "read" | "write" | "none";

/** `permissions:` as written: a map of scopes, `read-all`/`write-all`, or `{}`. */
export type PermissionsSpec = Readonly<Record<string, ScopeLevel>> | "read-all" | "write-all";

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

export interface JobSpec {
  readonly id: string;
  readonly name?: string;
  readonly needs: readonly string[];
  readonly if?: string | boolean;
  readonly environment?: { readonly name: string; readonly url?: string };
  readonly permissions?: PermissionsSpec;
  readonly outputs: Readonly<Record<string, string>>;
  readonly env: Readonly<Record<string, string>>;
  readonly steps: readonly StepSpec[];
  readonly continueOnError: boolean;
}

export interface TriggerSpec {
  readonly types?: readonly string[];
  readonly branches?: readonly string[];
  readonly workflows?: readonly string[];
  readonly inputs?: Readonly<Record<string, { readonly required: boolean; readonly default?: string; readonly type?: string }>>;
  readonly cron?: readonly string[];
}

export interface WorkflowSpec {
  readonly path: string;
  readonly name: string;
  readonly runName?: string;
  readonly on: Readonly<Record<string, TriggerSpec>>;
  readonly permissions?: PermissionsSpec;
  readonly env: Readonly<Record<string, string>>;
  /** Jobs in file order. */
  readonly jobs: readonly JobSpec[];
}

export class WorkflowError extends Error {
  constructor(path: string, message: string) {
    super(`${path}: ${message}`);
    this.name = "WorkflowError";
  }
}

const WORKFLOW_KEYS = new Set(["name", "run-name", "on", "permissions", "env", "jobs", "concurrency", "defaults"]);
const JOB_KEYS = new Set(["name", "needs", "if", "runs-on", "environment", "permissions", "outputs", "env", "steps", "timeout-minutes", "concurrency", "continue-on-error", "defaults"]);
const STEP_KEYS = new Set(["id", "name", "uses", "run", "shell", "with", "env", "if", "continue-on-error", "working-directory", "timeout-minutes"]);

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

function strings(path: string, where: string, value: unknown): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (!isObj(value)) throw new WorkflowError(path, `${where} must be a map`);
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, v === null ? "" : typeof v === "object" ? JSON.stringify(v) : String(v)]));
}

function list(value: unknown): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  return (Array.isArray(value) ? value : [value]).map(String);
}

function permissions(path: string, where: string, value: unknown): PermissionsSpec | undefined {
  if (value === undefined) return undefined;
  if (value === "read-all" || value === "write-all") return value;
  if (!isObj(value)) throw new WorkflowError(path, `${where}: permissions must be a map, read-all or write-all`);
  const out: Record<string, ScopeLevel> = {};
  for (const [scope, level] of Object.entries(value)) {
    if (level !== "read" && level !== "write" && level !== "none") throw new WorkflowError(path, `${where}: permission ${scope} must be read, write or none, not ${String(level)}`);
    out[scope.replace(/-/g, "_")] = level;
  }
  return out;
}

function triggers(path: string, value: unknown): Record<string, TriggerSpec> {
  if (typeof value === "string") return { [value]: {} };
  if (Array.isArray(value)) return Object.fromEntries(value.map((v) => [String(v), {}]));
  if (!isObj(value)) throw new WorkflowError(path, "`on` must name at least one event");
  const out: Record<string, TriggerSpec> = {};
  for (const [event, raw] of Object.entries(value)) {
    if (event === "schedule") {
      out[event] = { cron: Array.isArray(raw) ? raw.map((r) => String(isObj(r) ? r["cron"] : r)) : [] };
      continue;
    }
    const config = raw === null || raw === undefined ? {} : raw;
    if (!isObj(config)) throw new WorkflowError(path, `on.${event} must be a map`);
    const inputs = isObj(config["inputs"])
      ? Object.fromEntries(
          Object.entries(config["inputs"]).map(([name, spec]) => {
            const s = isObj(spec) ? spec : {};
            return [name, { required: s["required"] === true, ...(s["default"] === undefined ? {} : { default: String(s["default"]) }), ...(s["type"] === undefined ? {} : { type: String(s["type"]) }) }];
          }),
        )
      : undefined;
    const types = list(config["types"]);
    const branches = list(config["branches"]);
    const workflows = list(config["workflows"]);
    out[event] = { ...(types === undefined ? {} : { types }), ...(branches === undefined ? {} : { branches }), ...(workflows === undefined ? {} : { workflows }), ...(inputs === undefined ? {} : { inputs }) };
  }
  return out;
}

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

/** Parses a workflow file's text; throws `WorkflowError` naming the file and the key. */
export function parseWorkflow(path: string, text: string): WorkflowSpec {
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (err) {
    throw new WorkflowError(path, `not YAML: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (!isObj(doc)) throw new WorkflowError(path, "a workflow is a map");
  const unknown = Object.keys(doc).filter((k) => !WORKFLOW_KEYS.has(k));
  if (unknown.length > 0) throw new WorkflowError(path, `unknown key ${unknown.join(", ")}`);
  if (!isObj(doc["jobs"])) throw new WorkflowError(path, "`jobs` must be a map");
  const jobs: JobSpec[] = Object.entries(doc["jobs"]).map(([id, raw]) => {
    if (!isObj(raw)) throw new WorkflowError(path, `jobs.${id} must be a map`);
    const bad = Object.keys(raw).filter((k) => !JOB_KEYS.has(k));
    if (bad.length > 0) throw new WorkflowError(path, `jobs.${id}: unknown key ${bad.join(", ")}`);
    if (!Array.isArray(raw["steps"])) throw new WorkflowError(path, `jobs.${id}.steps must be a list (reusable workflows are not played)`);
    const env = raw["environment"];
    const environment = env === undefined ? undefined : isObj(env) ? { name: String(env["name"]), ...(env["url"] === undefined ? {} : { url: String(env["url"]) }) } : { name: String(env) };
    const perms = permissions(path, `jobs.${id}`, raw["permissions"]);
    const cond = raw["if"];
    return {
      id,
      ...(raw["name"] === undefined ? {} : { name: String(raw["name"]) }),
      needs: list(raw["needs"]) ?? [],
      ...(cond === undefined ? {} : { if: typeof cond === "boolean" ? cond : String(cond) }),
      ...(environment === undefined ? {} : { environment }),
      ...(perms === undefined ? {} : { permissions: perms }),
      outputs: strings(path, `jobs.${id}.outputs`, raw["outputs"]),
      env: strings(path, `jobs.${id}.env`, raw["env"]),
      steps: raw["steps"].map((s, i) => step(path, id, i, s)),
      continueOnError: raw["continue-on-error"] === true,
    };
  });
  for (const job of jobs) {
    for (const need of job.needs) if (!jobs.some((j) => j.id === need)) throw new WorkflowError(path, `jobs.${job.id} needs unknown job ${need}`);
  }
  const perms = permissions(path, "workflow", doc["permissions"]);
  return {
    path,
    name: doc["name"] === undefined ? path : String(doc["name"]),
    ...(doc["run-name"] === undefined ? {} : { runName: String(doc["run-name"]) }),
    on: triggers(path, doc["on"]),
    ...(perms === undefined ? {} : { permissions: perms }),
    env: strings(path, "env", doc["env"]),
    jobs,
  };
}
