/**
 * `uses: bosun-dev/bosun@…` (or `./`): the project's Action run the way the runner runs a node
 * action — a child process of `src/action/index.ts` through tsx (or the committed `dist/index.js`
 * with `useDist`), in the workspace, with each input of `action.yml` as `INPUT_<NAME>` (upper-cased,
 * spaces to `_`, hyphens kept) — given ones from `with:`, the others from their `default`, evaluated
 * (`${{ github.token }}`) — plus the runner's variables and the step's `env:`.
 * https://docs.github.com/en/actions/reference/workflows-and-actions/metadata-syntax#inputs
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import { interpolate } from "./interpolate.js";
import { spawnStep } from "./spawn-step.js";
import type { StepContext, StepOutcome } from "./step-context.js";

interface ActionMetadata {
  inputs?: Record<string, { default?: unknown; required?: boolean }>;
}

const metadata = new Map<string, ActionMetadata>();
function actionYml(root: string): ActionMetadata {
  let found = metadata.get(root);
  if (found === undefined) {
    found = parse(readFileSync(join(root, "action.yml"), "utf8")) as ActionMetadata;
    metadata.set(root, found);
  }
  return found;
}

/** The env name the runner gives an input: `INPUT_` + upper case, spaces to underscores, hyphens kept. */
export function inputEnvName(name: string): string {
  return `INPUT_${name.replace(/ /g, "_").toUpperCase()}`;
}

export async function bosunActionStep(ctx: StepContext): Promise<StepOutcome> {
  const root = ctx.runtime.options.projectRoot;
  const declared = actionYml(root).inputs ?? {};
  const unexpected = Object.keys(ctx.inputs).filter((k) => !(k in declared));
  if (unexpected.length > 0) ctx.log(`warning: Unexpected input(s) '${unexpected.join("', '")}', valid inputs are ['${Object.keys(declared).join("', '")}']`);
  const env: Record<string, string> = {};
  for (const [name, spec] of Object.entries(declared)) {
    const given = ctx.inputs[name];
    const value = given !== undefined ? given : spec.default === undefined ? "" : interpolate(String(spec.default), ctx.scope);
    env[inputEnvName(name)] = value;
  }
  for (const name of unexpected) env[inputEnvName(name)] = ctx.inputs[name] ?? "";
  const entry = ctx.runtime.options.useDist === true ? [join(root, "dist/index.js")] : ["--import", import.meta.resolve("tsx"), join(root, "src/action/index.ts")];
  return spawnStep(ctx, process.execPath, entry, env, ctx.workspace);
}

/** The project root this file lives in (test/support/workflow-player → ../../..). */
export const PROJECT_ROOT = fileURLToPath(new URL("../../../", import.meta.url));
