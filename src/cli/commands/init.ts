import { lstat, mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { DEFAULT_INIT_AGENT, INIT_AGENTS, initFiles, type InitAgent, type InitFile } from "../../core/setup/init-files.js";
import { setupSteps } from "../../core/setup/setup-steps.js";
import type { CliCommand, CliIo } from "../cli-io.js";
import { terminalText } from "../terminal-text.js";
import { argsErrorMessage, usageError } from "../usage-error.js";

const usage = `Usage: bosun init [--agent claude-code|codex|aider|openhands|command] [--action-only] [--verify] [--force]

Writes Bosun's setup into the git repository around the current folder: .github/bosun.yml (with
the schema line editors read), the brief issue form, and the workflows for the agent, each exactly
as docs/workflows/ ships it (acceptance, gate, review relay, separation, work). Then prints, in
order, the steps only a repository admin can do in GitHub's settings.

  --agent NAME    the work workflow's agent (default ${DEFAULT_INIT_AGENT}); command runs your own scripts/run-agent.sh
  --action-only   no Bosun App server: also write bosun-schedule.yml, the scheduler as a workflow
  --verify        also write bosun-verify.yml (verify deployments, docs/verify.md)
  --force         overwrite files that differ from what init writes

A file that already holds exactly what init writes is left as it is, so running init again is
safe; one that differs is never overwritten without --force, and nothing is written then.

Exit: 0 written (or already there) · 1 a file differs (named) or cannot be written · 2 usage error, or not in a git repository`;

/** The top of the checkout: the nearest folder upward holding `.git` (a folder, or a worktree's file). */
async function gitRoot(from: string): Promise<string | undefined> {
  let dir = resolve(from);
  for (;;) {
    try {
      await lstat(join(dir, ".git"));
      return dir;
    } catch {
      const parent = dirname(dir);
      if (parent === dir) return undefined;
      dir = parent;
    }
  }
}

type Plan = { file: InitFile; action: "write" | "unchanged" | "differs" | "not-a-file" };

/** What would happen to one file: a symlink or folder in its place is never written through. */
async function planFile(root: string, file: InitFile): Promise<Plan> {
  const path = join(root, ...file.path.split("/"));
  try {
    const stat = await lstat(path);
    if (!stat.isFile()) return { file, action: "not-a-file" };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return { file, action: "write" };
    throw err;
  }
  return { file, action: (await readFile(path, "utf8")) === file.content ? "unchanged" : "differs" };
}

async function run(args: readonly string[], io: CliIo): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: { agent: { type: "string" }, "action-only": { type: "boolean", default: false }, verify: { type: "boolean", default: false }, force: { type: "boolean", default: false } },
      allowPositionals: false,
      strict: true,
    }));
  } catch (err) {
    return usageError(io, "init", argsErrorMessage(err));
  }
  const agent = values.agent ?? DEFAULT_INIT_AGENT;
  if (!(INIT_AGENTS as readonly string[]).includes(agent)) return usageError(io, "init", `--agent must be one of ${INIT_AGENTS.join(", ")}, not '${agent}'`);
  const root = await gitRoot(io.cwd);
  if (root === undefined) return usageError(io, "init", "not inside a git repository: run it in your repository's checkout (after git init for a new one)");
  const options = { agent: agent as InitAgent, actionOnly: values["action-only"], verify: values.verify };
  let plans: Plan[];
  try {
    plans = await Promise.all(initFiles(options).map((f) => planFile(root, f)));
  } catch (err) {
    io.stderr.write(`bosun init: cannot read the repository: ${terminalText(err instanceof Error ? err.message : String(err))}\n`);
    return 1;
  }
  // Never through a symlink or over a folder, even with --force: it could point outside the checkout.
  const blocked = plans.filter((p) => p.action === "not-a-file" || (p.action === "differs" && !values.force));
  if (blocked.length > 0) {
    for (const p of blocked) {
      io.stderr.write(p.action === "not-a-file" ? `bosun init: ${p.file.path} is not a regular file (a symlink or a folder); not written\n` : `bosun init: ${p.file.path} differs from what init writes; not overwritten (--force replaces it)\n`);
    }
    io.stderr.write("Nothing was written.\n");
    return 1;
  }
  for (const p of plans) {
    if (p.action === "unchanged") {
      io.stdout.write(`unchanged  ${p.file.path}\n`);
      continue;
    }
    const path = join(root, ...p.file.path.split("/"));
    try {
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, p.file.content);
    } catch (err) {
      io.stderr.write(`bosun init: cannot write ${p.file.path}: ${terminalText((err as NodeJS.ErrnoException).code ?? String(err))}\n`);
      return 1;
    }
    io.stdout.write(`${p.action === "differs" ? "replaced " : "wrote    "}  ${p.file.path}\n`);
  }
  const steps = setupSteps({ ...options, context: "init" });
  io.stdout.write(`\nWhat init cannot do for you, in order:\n${steps.map((s, i) => `${String(i + 1).padStart(2)}. ${s.replace(/\*\*/g, "")}\n`).join("")}`);
  return 0;
}

const command: CliCommand = { summary: "write Bosun's config, issue form and workflows into this repository", usage, run };
export default command;
