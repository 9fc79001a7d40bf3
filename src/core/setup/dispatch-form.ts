/**
 * The two forms a `workflow` pool dispatches its workflow in (docs/dispatch.md): one item a run
 * (inputs `item`, `epoch`, `brief_hash`) or a batch (`dispatch.batch`: inputs `title`, `items`).
 * GitHub refuses a dispatch whose inputs the workflow does not declare (422 "Unexpected inputs
 * provided"), so a pool and its workflow in different forms dispatch nothing, ever: doctor says so.
 */
import { parse } from "yaml";
import { parseConfig } from "../config/parse-config.js";
import type { Read } from "./setup-facts.js";

export type DispatchForm = "batch" | "item";

const INPUTS: Record<DispatchForm, readonly string[]> = { batch: ["title", "items"], item: ["item", "epoch", "brief_hash"] };

const obj = (v: unknown): Record<string, unknown> => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/** The `workflow_dispatch` inputs a workflow declares, or undefined when it has no such trigger (or is no YAML). */
export function dispatchInputsOf(text: string): string[] | undefined {
  let doc: unknown;
  try {
    doc = parse(text, { maxAliasCount: 50 });
  } catch {
    return undefined;
  }
  const on = obj(doc)["on"];
  const names = typeof on === "string" ? [on] : Array.isArray(on) ? on.map(String) : Object.keys(obj(on));
  if (!names.includes("workflow_dispatch")) return undefined;
  return Object.keys(obj(obj(obj(on)["workflow_dispatch"])["inputs"]));
}

/** The form a workflow takes by its inputs, if it is one of the two. */
export function formOfInputs(inputs: readonly string[]): DispatchForm | undefined {
  return (Object.keys(INPUTS) as DispatchForm[]).find((form) => INPUTS[form].every((i) => inputs.includes(i)));
}

/** Per dispatched workflow file, the forms the configuration's pools send it in, with the pools' names. */
export function dispatchFormsOf(config: Read<string | null>): Map<string, Array<{ pool: string; form: DispatchForm }>> {
  const out = new Map<string, Array<{ pool: string; form: DispatchForm }>>();
  if (!config.ok || config.value === null) return out;
  const parsed = parseConfig(config.value);
  if (!parsed.ok) return out;
  for (const [pool, p] of Object.entries(parsed.config.pools)) {
    if (p.dispatch.kind !== "workflow" || p.size === 0) continue;
    const name = p.dispatch.workflow.replace(/^\.github\/workflows\//, "");
    out.set(name, [...(out.get(name) ?? []), { pool, form: p.dispatch.batch === true ? "batch" : "item" }]);
  }
  return out;
}

/** Why the pools cannot dispatch this workflow as they are set (one sentence per pool), or nothing. */
export function formMismatches(name: string, text: string, pools: ReadonlyArray<{ pool: string; form: DispatchForm }>): string[] {
  const inputs = dispatchInputsOf(text);
  if (inputs === undefined) return pools.map((p) => `pool '${p.pool}' dispatches .github/workflows/${name}, which has no workflow_dispatch trigger: GitHub refuses every dispatch`);
  const out: string[] = [];
  for (const p of pools) {
    const missing = INPUTS[p.form].filter((i) => !inputs.includes(i));
    if (missing.length === 0) continue;
    const other: DispatchForm = p.form === "batch" ? "item" : "batch";
    const hint = formOfInputs(inputs) === other ? ` — it is the ${other === "batch" ? "batched" : "one-item"} form: ${other === "batch" ? "set" : "remove"} \`batch: true\` on the pool, or use the other workflow` : "";
    out.push(`pool '${p.pool}' dispatches .github/workflows/${name} with inputs ${INPUTS[p.form].join(", ")}${p.form === "batch" ? " (batch: true)" : ""}, but the workflow declares ${inputs.length === 0 ? "no inputs" : inputs.join(", ")}: GitHub refuses every dispatch (422 Unexpected inputs)${hint}`);
  }
  return out;
}
