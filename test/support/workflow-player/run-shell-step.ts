/**
 * A `run:` step: the script written to a file under RUNNER_TEMP and run as the runner runs the
 * default shell on Linux (`bash -e {0}`; `shell: bash` is `bash --noprofile --norc -eo pipefail {0}`),
 * in `working-directory` or the workspace. Other shells are refused.
 * https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-syntax#jobsjob_idstepsshell
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { spawnStep } from "./spawn-step.js";
import { failed, type StepContext, type StepOutcome } from "./step-context.js";

export async function runShellStep(ctx: StepContext, script: string, shell: string | undefined, workingDirectory: string | undefined): Promise<StepOutcome> {
  const dir = mkdtempSync(join(ctx.runnerTemp, "_temp-"));
  const file = join(dir, "script.sh");
  writeFileSync(file, script);
  const args = shell === undefined ? ["-e", file] : shell === "bash" ? ["--noprofile", "--norc", "-eo", "pipefail", file] : undefined;
  if (args === undefined) return failed(`the player runs bash only, not shell: ${shell ?? ""}`);
  return spawnStep(ctx, "bash", args, {}, resolve(ctx.workspace, workingDirectory ?? ""));
}
