/**
 * Are the shipped workflows in `.github/workflows/` on the default branch, and do they keep the
 * templates' trust (compare-workflow.ts)? Work workflows are found through the configuration's
 * `workflow` pools; the schedule and verify workflows are compared when present.
 */
import { parseConfig } from "../config/parse-config.js";
import { compareWorkflow } from "./compare-workflow.js";
import { dispatchFormsOf, dispatchInputsOf, formMismatches, formOfInputs } from "./dispatch-form.js";
import type { Read, SetupFacts } from "./setup-facts.js";
import { couldNotCheck, ok, problem, refusal, type SetupFinding } from "./setup-finding.js";
import { WORKFLOW_TEMPLATES } from "./setup-templates.js";
import { workflowShape } from "./workflow-shape.js";

/** Every setup needs these; the gate and separation are what branch protection requires. */
export const REQUIRED_WORKFLOWS = ["bosun-acceptance.yml", "bosun-gate.yml", "bosun-review-relay.yml", "bosun-separation.yml"] as const;

/** The workflow files the configuration's `workflow` pools dispatch (by file name; an id cannot be looked up here). */
export function dispatchedWorkflows(config: Read<string | null>): string[] {
  if (!config.ok || config.value === null) return [];
  const parsed = parseConfig(config.value);
  if (!parsed.ok) return [];
  return [...new Set(Object.values(parsed.config.pools).flatMap((p) => (p.dispatch.kind === "workflow" && p.size > 0 ? [p.dispatch.workflow.replace(/^\.github\/workflows\//, "")] : [])))];
}

/** The files doctor reads, given the folder's listing: the required ones, the dispatched ones, and any present under a template's name. */
export function workflowsToRead(config: Read<string | null>, listing: readonly string[]): string[] {
  const present = listing.filter((f) => f in WORKFLOW_TEMPLATES);
  return [...new Set([...REQUIRED_WORKFLOWS, ...dispatchedWorkflows(config), ...present])];
}

/** Local reusable workflows a workflow's jobs call (`uses: ./.github/workflows/x.yml`), by file name. */
function calledWorkflows(text: string): string[] {
  return [...text.matchAll(/^\s*uses:\s*["']?\.\/\.github\/workflows\/([^"'\s]+)/gm)].map((m) => m[1] ?? "");
}

/**
 * The template a work workflow is judged against: its own name, else by what it holds — a batch
 * workflow by the shipped item workflow it calls, an item workflow (`workflow_call`) or a one-item
 * workflow by the agent its agent job names.
 */
function templateFor(name: string, text: string): string | undefined {
  if (name in WORKFLOW_TEMPLATES) return name;
  const called = calledWorkflows(text).find((c) => c in WORKFLOW_TEMPLATES && c.endsWith("-item.yml"));
  if (called !== undefined) return called.replace(/-item\.yml$/, ".yml");
  const item = /^\s*workflow_call:/m.test(text) ? "-item" : "";
  const agent = /^\s*agent:\s*([a-z-]+)\s*$/m.exec(text)?.[1];
  if (agent !== undefined && `bosun-work-${agent}${item}.yml` in WORKFLOW_TEMPLATES) return `bosun-work-${agent}${item}.yml`;
  return /^\s*agent-command:/m.test(text) ? `bosun-work${item}.yml` : undefined;
}

/**
 * The shape a workflow is held to. A one-item work workflow (the form before `batch`, still
 * dispatched by pools without it) keeps the trust of the item workflow the batch calls: the same
 * three jobs, run by `workflow_dispatch` instead of `workflow_call`.
 */
function templateShape(templateName: string, text: string): ReturnType<typeof workflowShape> {
  const itemName = templateName.replace(/\.yml$/, "-item.yml");
  const oneItem = itemName in WORKFLOW_TEMPLATES && !templateName.endsWith("-item.yml") && formOfInputs(dispatchInputsOf(text) ?? []) === "item";
  const shape = workflowShape(WORKFLOW_TEMPLATES[oneItem ? itemName : templateName] ?? "");
  return shape.ok && oneItem ? { ok: true, shape: { ...shape.shape, triggers: { workflow_dispatch: "" } } } : shape;
}

export function checkWorkflows(facts: SetupFacts): SetupFinding[] {
  const read = facts.workflows;
  if (!read.ok) {
    const { message, fix } = refusal(`.github/workflows/ at ${facts.defaultBranch}`, read, "use a token that can read the repository's contents (Contents: read)");
    return [couldNotCheck("workflows", message, fix)];
  }
  const files = read.value;
  const dispatched = dispatchedWorkflows(facts.config);
  // What a dispatched workflow calls runs as part of it: checked as well, and missing is a problem.
  const called = dispatched.flatMap((name) => calledWorkflows(files[name] ?? ""));
  const wanted = [...new Set([...REQUIRED_WORKFLOWS, ...dispatched, ...called, ...Object.keys(files)])];
  const forms = dispatchFormsOf(facts.config);
  const findings: SetupFinding[] = [];
  for (const name of wanted) {
    const path = `.github/workflows/${name}`;
    const text = files[name];
    if (/^\d+$/.test(name)) {
      findings.push(couldNotCheck("workflows", `a pool dispatches the workflow with id ${name}, which doctor cannot look up by file`, "name the workflow by its file name in .github/bosun.yml (dispatch.workflow: bosun-work.yml)", name));
      continue;
    }
    if (text === undefined) {
      const why = (REQUIRED_WORKFLOWS as readonly string[]).includes(name) ? "every setup needs it" : dispatched.includes(name) ? "a pool in .github/bosun.yml dispatches it" : "a dispatched workflow calls it";
      findings.push(problem("workflows", `${path} is missing on ${facts.defaultBranch} (${why})`, `add it: \`npx bosun init\` writes it, or copy docs/workflows/${name in WORKFLOW_TEMPLATES ? name : "bosun-work.yml"}`, path));
      continue;
    }
    const templateName = templateFor(name, text);
    if (templateName === undefined) {
      findings.push(couldNotCheck("workflows", `${path} is dispatched by a pool but matches no shipped work workflow (no \`agent:\` preset or \`agent-command\`)`, "start from docs/workflows/bosun-work.yml or a bosun-work-<agent>.yml, which doctor can compare", path));
      continue;
    }
    for (const m of formMismatches(name, text, forms.get(name) ?? [])) findings.push(problem("workflows", m, "make the pool's `batch` and the workflow's inputs agree (docs/dispatch.md)", path));
    const actual = workflowShape(text);
    const template = templateShape(templateName, text);
    if (!actual.ok || !template.ok) {
      findings.push(problem("workflows", `${path} is ${actual.ok ? "unreadable" : actual.reason}`, `restore it from docs/workflows/${templateName}`, path));
      continue;
    }
    const differences = compareWorkflow(actual.shape, template.shape);
    if (differences.length === 0) findings.push(ok("workflows", `${path} keeps the trust of docs/workflows/${templateName}`, path));
    else for (const d of differences) findings.push(problem("workflows", `${path}: ${d}`, `undo the change: compare with docs/workflows/${templateName} (\`npx bosun init --force\` rewrites the shipped files as they are)`, path));
  }
  return findings;
}
