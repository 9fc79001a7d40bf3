/**
 * A workflow file as the player runs it, read with the `yaml` package and checked for the shapes
 * the player understands. Keys GitHub has but the player ignores are named in README.md
 * (`concurrency`, `timeout-minutes`, `runs-on`, `defaults`); anything else unknown is an error.
 */
import { parse } from "yaml";
import { parseJob, type JobSpec } from "./parse-job.js";
import { isObj, list, permissions, strings, WorkflowError, type PermissionsSpec } from "./workflow-error.js";

export type { JobSpec, StepSpec, StrategySpec } from "./parse-job.js";
export { WorkflowError, type PermissionsSpec, type ScopeLevel } from "./workflow-error.js";

export interface TriggerSpec {
  readonly types?: readonly string[];
  readonly branches?: readonly string[];
  readonly workflows?: readonly string[];
  readonly inputs?: Readonly<Record<string, InputSpec>>;
  readonly cron?: readonly string[];
  /** `on.workflow_call.secrets`: which secrets a caller passes by name (`secrets: inherit` skips the check). */
  readonly secrets?: Readonly<Record<string, { readonly required: boolean }>>;
  /** `on.workflow_call.outputs.<id>.value`, evaluated with the `jobs` context when the call ends. */
  readonly outputs?: Readonly<Record<string, string>>;
}

export interface InputSpec {
  readonly required: boolean;
  /** The default as text (dispatch inputs are text). */
  readonly default?: string;
  /** The default as written in YAML (a `workflow_call` input keeps its type: boolean, number, string). */
  readonly typedDefault?: string | number | boolean;
  readonly type?: string;
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

const WORKFLOW_KEYS = new Set(["name", "run-name", "on", "permissions", "env", "jobs", "concurrency", "defaults"]);

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
            const typed = s["default"];
            return [name, { required: s["required"] === true, ...(typed === undefined ? {} : { default: String(typed), typedDefault: typeof typed === "number" || typeof typed === "boolean" ? typed : String(typed) }), ...(s["type"] === undefined ? {} : { type: String(s["type"]) }) }];
          }),
        )
      : undefined;
    const types = list(config["types"]);
    const branches = list(config["branches"]);
    const workflows = list(config["workflows"]);
    const secrets = isObj(config["secrets"]) ? Object.fromEntries(Object.entries(config["secrets"]).map(([name, spec]) => [name, { required: isObj(spec) && spec["required"] === true }])) : undefined;
    const outputs = isObj(config["outputs"]) ? Object.fromEntries(Object.entries(config["outputs"]).map(([name, spec]) => [name, String(isObj(spec) ? (spec["value"] ?? "") : "")])) : undefined;
    out[event] = { ...(secrets === undefined ? {} : { secrets }), ...(outputs === undefined ? {} : { outputs }), ...(types === undefined ? {} : { types }), ...(branches === undefined ? {} : { branches }), ...(workflows === undefined ? {} : { workflows }), ...(inputs === undefined ? {} : { inputs }) };
  }
  return out;
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
  const jobs: JobSpec[] = Object.entries(doc["jobs"]).map(([id, raw]) => parseJob(path, id, raw));
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
