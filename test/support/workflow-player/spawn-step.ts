/**
 * A step's process as the runner starts one: its own `GITHUB_OUTPUT`, `GITHUB_ENV`, `GITHUB_PATH`
 * and `GITHUB_STEP_SUMMARY` files, stdout and stderr read line by line (workflow commands
 * `::add-mask::` and `::error::` honoured, masked values printed as `***`), outputs and env read back
 * from the files when it exits. A non-zero exit fails the step.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readCommandFile } from "./read-command-file.js";
import type { StepContext, StepOutcome } from "./step-context.js";

export async function spawnStep(ctx: StepContext, command: string, args: readonly string[], extraEnv: Readonly<Record<string, string>>, cwd: string): Promise<StepOutcome> {
  const files = mkdtempSync(join(ctx.runnerTemp, "_runner_file_commands-"));
  const paths = { GITHUB_OUTPUT: join(files, "output"), GITHUB_ENV: join(files, "env"), GITHUB_PATH: join(files, "path"), GITHUB_STEP_SUMMARY: join(files, "summary") };
  for (const p of Object.values(paths)) writeFileSync(p, "");
  const errors: string[] = [];
  const code = await new Promise<number>((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...ctx.env, ...extraEnv, ...paths }, stdio: ["ignore", "pipe", "pipe"] });
    const onLine = (line: string): void => {
      const mask = /^::add-mask::(.*)$/.exec(line);
      if (mask !== null) {
        if ((mask[1] ?? "") !== "") ctx.addMask(mask[1] as string);
        return;
      }
      const error = /^::error(?: [^:]*)?::(.*)$/.exec(line);
      if (error !== null) errors.push((error[1] ?? "").replace(/%0A/g, "\n").replace(/%25/g, "%"));
      ctx.log(line);
    };
    for (const stream of [child.stdout, child.stderr]) {
      let held = "";
      stream.setEncoding("utf8");
      stream.on("data", (chunk: string) => {
        const lines = (held + chunk).split("\n");
        held = lines.pop() ?? "";
        lines.forEach(onLine);
      });
      stream.on("end", () => {
        if (held !== "") onLine(held);
      });
    }
    child.on("error", reject);
    child.on("close", (c, signal) => resolve(c ?? (signal === null ? 1 : 128)));
  });
  const outputs = readCommandFile(paths.GITHUB_OUTPUT);
  const env = readCommandFile(paths.GITHUB_ENV);
  const summary = readFileSync(paths.GITHUB_STEP_SUMMARY, "utf8");
  const added = readFileSync(paths.GITHUB_PATH, "utf8").split("\n").filter((l) => l !== "");
  if (added.length > 0) env["PATH"] = [...added.reverse(), ctx.env["PATH"] ?? ""].join(":");
  if (code !== 0) return { ok: false, outputs, env, summary, message: errors.length > 0 ? errors.join("\n") : `Process completed with exit code ${code}.` };
  return { ok: true, outputs, env, summary };
}
