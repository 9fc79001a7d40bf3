import { readBoundedFile } from "../../adapters/local/read-bounded-file.js";
import { basename, extname, resolve } from "node:path";
import { parseArgs } from "node:util";
import { acceptanceEnv } from "../../adapters/local/acceptance-env.js";
import { journalGateVerdict } from "./journal-gate-verdict.js";
import { gitDiff } from "../../adapters/local/git-diff.js";
import { headCheckout } from "../../adapters/local/head-checkout.js";
import { runAcceptance } from "../../adapters/local/run-acceptance.js";
import { runGit } from "../../adapters/local/run-git.js";
import { secretValues } from "../../adapters/local/secret-values.js";
import { formatProblems } from "../../core/brief/brief.js";
import { briefHash, MAX_BRIEF_BYTES, parseBriefYaml } from "../../core/brief/parse-brief.js";
import type { AcceptanceRun } from "../../core/gate/check-acceptance.js";
import { checkAcceptance } from "../../core/gate/check-acceptance.js";
import type { GateVerdict } from "../../core/gate/combine-verdict.js";
import { DEFAULT_GATE_CONFIG } from "../../core/gate/gate-config.js";
import { gateReport } from "../../core/gate/gate-report.js";
import { manifestsToLookUp } from "../../core/gate/lock-files.js";
import { renderGateText } from "../../core/gate/render-gate-report.js";
import { compileGateConfig, runMechanicalChecks } from "../../core/gate/run-mechanical-checks.js";
import { terminalText } from "../terminal-text.js";
import type { CliCommand, CliIo } from "../cli-io.js";
import { EXIT_USAGE } from "../cli-io.js";
import { argsErrorMessage, usageError } from "../usage-error.js";
import { reviewFromEnv } from "./gate-review.js";

const usage = `Usage: bosun gate --brief FILE [--base REF] [--head REF] [options]

Runs the review gate over the committed diff base...head (from their merge base, as a pull request
shows it): the acceptance command, allowed paths (both names of a rename), size_cap (lock files not
counted) and sensitive paths; names every failing path.

  --brief FILE          the brief (YAML)
  --base REF            default: origin/HEAD, else main, else master
  --head REF            default: HEAD; another commit is checked out in a temporary worktree
  --no-acceptance       do not run the acceptance command (the check is then could-not-check)
  --json                print the report as JSON
  --state DIR           journal the verdict as a GATE event in DIR/journal.jsonl (item = the
                        brief's id, class = its claim key's namespace, sha = the head commit),
                        where \`bosun drain --state DIR\` and \`bosun stats\` find it

Reviewer (optional): BOSUN_REVIEWER=anthropic|openai|command, BOSUN_REVIEW_MODE=advisory|blocking,
BOSUN_REVIEWER_MODEL, BOSUN_REVIEWER_URL, BOSUN_REVIEWER_COMMAND; the key from ANTHROPIC_API_KEY
or OPENAI_API_KEY.

Exit: 0 pass · 1 fail, including a sensitive path that needs a human · 3 could not check · 2 usage error`;

/** Exit codes of `bosun gate` (DESIGN.md, "The bosun command"). */
export const GATE_EXIT: Readonly<Record<GateVerdict, number>> = { pass: 0, fail: 1, "could-not-check": 3 };

/** Test seam: fetch for the reviewer's HTTP providers. */
export interface GateCommandDeps {
  readonly fetch?: typeof globalThis.fetch;
}

/** Builds the command; the default export uses the global fetch. */
export function createGateCommand(deps: GateCommandDeps = {}): CliCommand {
  return { summary: "run the review gate over a local git diff", usage, run: (args, io) => runGate(args, io, deps) };
}

async function runGate(args: readonly string[], io: CliIo, deps: GateCommandDeps): Promise<number> {
  let values: { brief?: string | undefined; base?: string | undefined; head?: string | undefined; json?: boolean | undefined; "no-acceptance"?: boolean | undefined; state?: string | undefined };
  try {
    values = parseArgs({
      args: [...args],
      strict: true,
      allowPositionals: false,
      options: { brief: { type: "string" }, base: { type: "string" }, head: { type: "string" }, json: { type: "boolean" }, "no-acceptance": { type: "boolean" }, state: { type: "string" } },
    }).values;
  } catch (err) {
    return usageError(io, "gate", argsErrorMessage(err));
  }
  if (values.brief === undefined) {
    return usageError(io, "gate", "--brief FILE is required");
  }
  const file = resolve(io.cwd, values.brief);
  // An empty ref (a CI script's unset variable) once made the diff HEAD...HEAD: nothing changed, pass.
  for (const [flag, ref] of [["--base", values.base], ["--head", values.head]] as const) {
    if (ref !== undefined && ref.trim() === "") return usageError(io, "gate", `${flag} is empty; name a commit, branch or tag (an unset variable in a script?)`);
    if (ref?.startsWith("-") === true) return usageError(io, "gate", `${flag} '${ref}' starts with '-'; name a commit, branch or tag`);
  }
  // Through the reader that never blocks: a FIFO or /dev/zero named as the brief is refused.
  const briefFile = readBoundedFile(file, { most: 4 * MAX_BRIEF_BYTES, symlinks: "follow" });
  if (!briefFile.ok) {
    io.stderr.write(`bosun gate: cannot read ${terminalText(values.brief)}: ${briefFile.problem}\n`);
    return EXIT_USAGE;
  }
  const parsed = parseBriefYaml(briefFile.text, { name: values.brief, defaultId: basename(file, extname(file)) });
  if (!parsed.ok) {
    io.stderr.write(`bosun gate: the brief is invalid, nothing was checked:\n${terminalText(formatProblems(parsed.problems))}\n`);
    return GATE_EXIT["could-not-check"];
  }
  const brief = parsed.brief;
  const head = values.head ?? "HEAD";
  const base = values.base ?? (await defaultBase(io.cwd));
  if (base === undefined) {
    io.stderr.write("bosun gate: no origin/HEAD, main or master here; pass --base REF\n");
    return EXIT_USAGE;
  }
  const behind = await headAddsNothing(io.cwd, base, head);
  if (behind !== undefined) {
    io.stderr.write(`bosun gate: ${terminalText(head)} adds no commit over ${terminalText(base)} (${behind}): there is no change to judge; is --base the branch the work started from?\n`);
    if (values.state !== undefined) await journalGateVerdict(io, values.state, brief, head, "could-not-check");
    return GATE_EXIT["could-not-check"];
  }
  const read = await gitDiff(io.cwd, base, head);
  if (!read.ok) {
    io.stderr.write(`bosun gate: cannot read the diff ${base}...${head}: ${read.message}\n`);
    if (values.state !== undefined) await journalGateVerdict(io, values.state, brief, head, "could-not-check");
    return GATE_EXIT["could-not-check"];
  }
  const checks = runMechanicalChecks(brief, read.diff, compileGateConfig(DEFAULT_GATE_CONFIG), await manifestsAt(io.cwd, base, head, manifestsToLookUp(read.diff.files, brief.constraints.paths)));
  const acceptance = values["no-acceptance"] === true ? ({ kind: "not-run", command: brief.acceptance.command, reason: "--no-acceptance was given" } as const) : await accept(io, head, brief.acceptance);
  checks.unshift(checkAcceptance(acceptance));
  const review = await reviewFromEnv(io.env, brief, read.diff, checks, deps.fetch ?? globalThis.fetch);
  if (review !== undefined) checks.push(review);
  const report = gateReport({ id: brief.id, hash: briefHash(brief), source: values.brief }, checks);
  io.stdout.write(values.json === true ? `${JSON.stringify(report, null, 2)}\n` : renderGateText(report));
  if (values.state !== undefined && !(await journalGateVerdict(io, values.state, brief, head, report.verdict))) return GATE_EXIT["could-not-check"];
  return GATE_EXIT[report.verdict];
}

async function accept(io: CliIo, head: string, acceptance: { command: string; timeout: number }): Promise<AcceptanceRun> {
  const checkout = await headCheckout(io.cwd, head);
  if (!checkout.ok) return { kind: "not-run", command: acceptance.command, reason: checkout.message };
  io.stderr.write(`bosun gate: running \`${acceptance.command}\` ${checkout.note}\n`);
  try {
    return await runAcceptance({ command: acceptance.command, cwd: checkout.dir, timeoutSeconds: acceptance.timeout, env: acceptanceEnv(io.env), secrets: secretValues(io.env) });
  } finally {
    await checkout.dispose();
  }
}

/** Which of `paths` exist at the merge base of `base...head` (where the diff starts): a lock file is exempt only beside one. */
async function manifestsAt(cwd: string, base: string, head: string, paths: readonly string[]): Promise<Set<string>> {
  const found = new Set<string>();
  if (paths.length === 0) return found;
  const mergeBase = await runGit(["merge-base", base, head], cwd);
  if (!mergeBase.ok) return found;
  for (const path of paths) if ((await runGit(["cat-file", "-e", `${mergeBase.stdout.trim()}:${path}`], cwd)).ok) found.add(path);
  return found;
}

/**
 * Why `base...head` is empty by construction — head is base, or base already contains it
 * (`--base HEAD`, the work branch itself, a base that moved past it) — or undefined. Such a
 * diff once passed every check on its 0 files, the empty `--base` hole by another name.
 */
async function headAddsNothing(cwd: string, base: string, head: string): Promise<string | undefined> {
  const [mergeBase, headSha] = await Promise.all([runGit(["merge-base", base, head], cwd), runGit(["rev-parse", "--verify", "--quiet", `${head}^{commit}`], cwd)]);
  if (!mergeBase.ok || !headSha.ok || mergeBase.stdout.trim() !== headSha.stdout.trim()) return undefined;
  return `${terminalText(base)} already contains ${headSha.stdout.trim().slice(0, 12)}`;
}

async function defaultBase(cwd: string): Promise<string | undefined> {
  for (const ref of ["origin/HEAD", "main", "master"]) {
    if ((await runGit(["rev-parse", "--verify", "--quiet", `${ref}^{commit}`], cwd)).ok) return ref;
  }
  return undefined;
}

export default createGateCommand();
