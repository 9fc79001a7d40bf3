/**
 * The trust-relevant parts of a workflow file, as plain data: what triggers it (which decides who
 * wrote the file GitHub runs), what each job may do with its token, which secrets and environment
 * it reads, what it checks out, and which actions it runs at which version.
 */
import { parse } from "yaml";

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Obj) : {});

export interface StepShape {
  /** `actions/checkout`, `bosun-dev/bosun` (no version), or `run` for a shell step. */
  readonly kind: string;
  /** The version after `@` of a `uses:` step. */
  readonly version?: string;
  /** Inputs (`with:`) as strings. */
  readonly with: Readonly<Record<string, string>>;
}

export interface JobShape {
  /** The token's permissions, the job's own or else the workflow's: scope → level; null: undeclared (GitHub's default, which may write). */
  readonly permissions: Readonly<Record<string, string>> | null;
  readonly environment: string | null;
  readonly secrets: readonly string[];
  readonly steps: readonly StepShape[];
  /** Calls a reusable workflow (`jobs.<id>.uses`): its steps are not in this file. */
  readonly calls?: string;
}

export interface WorkflowShape {
  /** Trigger name → its settings that decide what runs (`workflow_run.workflows`), as JSON. */
  readonly triggers: Readonly<Record<string, string>>;
  readonly jobs: Readonly<Record<string, JobShape>>;
}

// Both spellings of a secret, `secrets.NAME` and `secrets['NAME']`, and the whole context (`toJSON(secrets)`).
const SECRET = /\bsecrets(?:\.([A-Za-z0-9_-]+)|\[\s*\\?['"]([^'"\\]+)\\?['"]\s*\]|\b(?![.[]))/g;

/** `permissions:` as scope → level; `read-all`/`write-all` spread over every scope GitHub names. */
function permissionsOf(value: unknown): Record<string, string> | null {
  if (value === undefined || value === null) return null;
  if (value === "read-all" || value === "write-all") return { "*": value === "read-all" ? "read" : "write" };
  return Object.fromEntries(Object.entries(obj(value)).map(([k, v]) => [k, String(v)]));
}

function triggersOf(on: unknown): Record<string, string> {
  const names = typeof on === "string" ? [on] : Array.isArray(on) ? on.map(String) : Object.keys(obj(on));
  return Object.fromEntries(
    names.map((name) => {
      const settings = obj(obj(on)[name]);
      // Which workflows' runs start this one: the one setting of a trigger that changes who is trusted.
      return [name, name === "workflow_run" ? JSON.stringify([...(Array.isArray(settings["workflows"]) ? settings["workflows"].map(String) : [])].sort()) : ""];
    }),
  );
}

function stepOf(step: Obj): StepShape {
  const withs = Object.fromEntries(Object.entries(obj(step["with"])).map(([k, v]) => [k, typeof v === "string" ? v.trim() : JSON.stringify(v)]));
  const uses = step["uses"];
  if (typeof uses !== "string") return { kind: "run", with: withs };
  const at = uses.lastIndexOf("@");
  return at < 0 ? { kind: uses, with: withs } : { kind: uses.slice(0, at), version: uses.slice(at + 1), with: withs };
}

/** The workflow's shape, or the reason it cannot be read as a workflow. */
export function workflowShape(text: string): { ok: true; shape: WorkflowShape } | { ok: false; reason: string } {
  let doc: unknown;
  try {
    doc = parse(text, { maxAliasCount: 50 });
  } catch (err) {
    return { ok: false, reason: `not valid YAML: ${err instanceof Error ? err.message.split("\n")[0] : String(err)}` };
  }
  const workflow = obj(doc);
  if (!("on" in workflow) || !("jobs" in workflow)) return { ok: false, reason: "not a workflow: it has no `on:` or no `jobs:`" };
  const workflowPermissions = permissionsOf(workflow["permissions"]);
  const jobs: Record<string, JobShape> = {};
  for (const [id, value] of Object.entries(obj(workflow["jobs"]))) {
    const job = obj(value);
    const environment = job["environment"];
    const envName = typeof environment === "string" ? environment : typeof obj(environment)["name"] === "string" ? String(obj(environment)["name"]) : null;
    const secrets = [...new Set([...JSON.stringify(job).matchAll(SECRET)].map((m) => m[1] ?? m[2] ?? "(all secrets)"))].sort();
    const steps = (Array.isArray(job["steps"]) ? job["steps"] : []).map((s) => stepOf(obj(s)));
    jobs[id] = {
      permissions: "permissions" in job ? permissionsOf(job["permissions"]) ?? {} : workflowPermissions,
      environment: envName,
      secrets,
      steps,
      ...(typeof job["uses"] === "string" ? { calls: job["uses"] } : {}),
    };
  }
  return { ok: true, shape: { triggers: triggersOf(workflow["on"]), jobs } };
}
