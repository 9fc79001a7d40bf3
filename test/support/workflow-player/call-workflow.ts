/**
 * One call of a local reusable workflow (`jobs.<id>.uses: ./.github/workflows/x.yml`), as GitHub
 * makes it (https://docs.github.com/en/actions/how-tos/reuse-automations/reuse-workflows and
 * https://docs.github.com/en/actions/reference/workflows-and-actions/reusable-workflows): the file
 * read at the run's commit must have `on.workflow_call`; `with:` (evaluated by the caller) becomes its
 * `inputs`, checked and typed by `on.workflow_call.inputs`; `secrets: inherit` hands on the caller's
 * secrets, a map only those it names, nothing else none; the calling job's permissions (else the
 * caller workflow's, else the restricted default) cap every called job's. The errors are GitHub's
 * (actions/runner, src/Sdk/WorkflowParser/Conversion/WorkflowTemplateConverter.cs, PermissionsHelper.cs).
 */
import { filesAt } from "../../fake-github/git-objects.js";
import type { ExpressionScope } from "./evaluate-expression.js";
import { toText, type Value } from "./expression-values.js";
import { interpolate, interpolateValue } from "./interpolate.js";
import { parseWorkflow, type InputSpec, type JobSpec, type PermissionsSpec } from "./parse-workflow.js";
import type { JobFrame, PlayedRun } from "./player-types.js";
import { tokenScopes } from "./token-scopes.js";

const LOCAL = /^\.\/(\.github\/workflows\/[^/]+\.ya?ml)$/;
const RANK = { none: 0, read: 1, write: 2 } as const;

/** An input's value as its declared type takes it: a string takes any scalar as text; number and boolean need their type. */
function typed(name: string, spec: InputSpec, value: Value): Value {
  const type = spec.type ?? "string";
  if (type === "boolean" && typeof value !== "boolean") throw new Error(`Invalid input, ${name}: expected a boolean, got '${toText(value)}'`);
  if (type === "number" && typeof value !== "number") throw new Error(`Invalid input, ${name}: expected a number, got '${toText(value)}'`);
  if (type === "string" && typeof value === "object" && value !== null) throw new Error(`Invalid input, ${name}: expected a string, got an ${Array.isArray(value) ? "array" : "object"}`);
  return type === "string" ? toText(value) : value;
}

function callInputs(job: JobSpec, declared: Readonly<Record<string, InputSpec>>, scope: ExpressionScope): Record<string, Value> {
  const given = Object.fromEntries(Object.entries(job.callWith).map(([k, v]) => [k, typeof v === "string" && v.includes("${{") ? interpolateValue(v, scope) : v] as [string, Value]));
  const stray = Object.keys(given).find((k) => !(k in declared));
  if (stray !== undefined) throw new Error(`Invalid input, ${stray} is not defined in the referenced workflow.`);
  const inputs: Record<string, Value> = {};
  for (const [name, spec] of Object.entries(declared)) {
    if (name in given) inputs[name] = typed(name, spec, given[name] ?? null);
    else if (spec.required) throw new Error(`Input ${name} is required, but not provided while calling.`);
    else if (spec.typedDefault !== undefined) inputs[name] = typed(name, spec, spec.typedDefault);
    else inputs[name] = spec.type === "boolean" ? false : spec.type === "number" ? 0 : "";
  }
  return inputs;
}

function callSecrets(job: JobSpec, declared: Readonly<Record<string, { readonly required: boolean }>>, caller: JobFrame, scope: ExpressionScope): Record<string, string> {
  if (job.callSecrets === "inherit") return { ...caller.secrets };
  const given = Object.fromEntries(Object.entries(job.callSecrets ?? {}).map(([k, v]) => [k, interpolate(v, scope)]));
  const stray = Object.keys(given).find((k) => !(k in declared));
  if (stray !== undefined) throw new Error(`Invalid secret, ${stray} is not defined in the referenced workflow.`);
  const missing = Object.entries(declared).find(([name, spec]) => spec.required && !(name in given));
  if (missing !== undefined) throw new Error(`Secret ${missing[0]} is required, but not provided while calling.`);
  return given;
}

/** Throws GitHub's error when `requested` asks more than `max` of any scope. */
function checkPermissions(ref: string, nested: string | undefined, requested: PermissionsSpec | undefined, max: Record<string, "read" | "write">): void {
  if (requested === undefined) return;
  const asked = typeof requested === "string" ? tokenScopes(requested) : requested;
  const over = Object.entries(asked).filter(([scope, level]) => RANK[level] > RANK[max[scope] ?? "none"]);
  if (over.length === 0) return;
  const name = (scope: string) => scope.replace(/_/g, "-");
  const wants = over.map(([scope, level]) => `${name(scope)}: ${level}`).join(", ");
  const allowed = over.map(([scope]) => `${name(scope)}: ${max[scope] ?? "none"}`).join(", ");
  throw new Error(`Error calling workflow '${ref}'. ${nested === undefined ? "The workflow" : `The nested job '${nested}'`} is requesting '${wants}', but is only allowed '${allowed}'.`);
}

/**
 * The frame of the called workflow for one call (one matrix leg) of `job`, which sits in `caller`;
 * `scope` is the caller's view for `with:` and `secrets:` (github, needs, strategy, matrix, inputs,
 * vars, secrets). Throws, naming why, where GitHub refuses the call.
 */
export function callWorkflow(run: PlayedRun, caller: JobFrame, job: JobSpec, prefix: string, scope: ExpressionScope): JobFrame {
  const uses = job.uses ?? "";
  const local = LOCAL.exec(uses);
  if (local === null) throw new Error(`jobs.${job.id}.uses: the player calls only reusable workflows of the run's own repository (./.github/workflows/<file>.yml), not ${uses}`);
  if (caller.depth >= 3) throw new Error(`jobs.${job.id}: You can connect up to four levels of workflows (${uses} would be the fifth)`);
  const path = local[1] as string;
  const ref = `${run.fullName}/${path}@${run.sha}`;
  const text = filesAt(run.repo, run.sha)?.get(path);
  if (text === undefined) throw new Error(`error parsing called workflow "${ref}": failed to fetch workflow: workflow was not found.`);
  const called = parseWorkflow(path, text);
  const trigger = called.on["workflow_call"];
  if (trigger === undefined) throw new Error(`${uses}: workflow_call key is not defined in the referenced workflow.`);
  const inputs = callInputs(job, trigger.inputs ?? {}, scope);
  const secrets = callSecrets(job, trigger.secrets ?? {}, caller, scope);
  // The calling job's permissions (a job without them has its workflow's) are the most any called job gets.
  const explicit = job.permissions ?? caller.permissions;
  const max = tokenScopes(explicit);
  checkPermissions(ref, undefined, called.permissions, max);
  for (const nested of called.jobs) checkPermissions(ref, nested.id, nested.permissions, max);
  const passedSecrets = job.callSecrets === "inherit" ? "inherit" : Object.keys(job.callSecrets ?? {});
  return { workflow: called, inputs, secrets, prefix, permissions: called.permissions ?? explicit, depth: caller.depth + 1, passedSecrets };
}
