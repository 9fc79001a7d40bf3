import { mkdir, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";
import type { Brief } from "../../core/brief/brief.js";
import type { ClaimToken } from "../../core/claims/claim-token.js";
import type { RunResult, RunShare } from "../../core/engine/engine-loop.js";
import type { RunCost } from "../../core/journal/journal-event.js";
import { checkRunCost } from "../../core/journal/run-cost.js";
import { maskRunResult } from "../../core/redact/mask-run-result.js";
import { redactSecrets } from "../../core/redact/redact-secrets.js";
import { compileAllowedPaths } from "../../core/gate/compile-allowed-paths.js";
import { agentEnv } from "../../core/agents/agent-env.js";
import type { AgentPreset } from "../../core/agents/agent-preset.js";
import { combineStops } from "../../core/agents/combine-stops.js";
import type { PromptTarget } from "../../core/agents/render-brief-prompt.js";
import { renderBriefPrompt } from "../../core/agents/render-brief-prompt.js";
import { shellQuote } from "../../core/agents/shell-quote.js";
import { failed, outOfBudget } from "../../core/stop/stop.js";
import { runGit } from "../local/run-git.js";
import { readBoundedFile } from "../local/read-bounded-file.js";
import { readResultFile } from "../local/read-result-file.js";
import { runShell } from "../local/run-shell.js";

export interface AgentDispatcherOptions {
  readonly preset: AgentPreset;
  readonly stateDir: string;
  readonly cwd: string;
  /** The environment to pick from: only base names, the preset's names and `extraEnv` are handed over. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** More variable names the workflow hands the agent (never a runner credential). */
  readonly extraEnv?: readonly string[];
  /** Values masked in evidence and logs. */
  readonly secrets: readonly string[];
  /** Where the work goes (the issue and branch in work mode); nothing locally. */
  readonly target?: PromptTarget;
}

/**
 * Runs a preset agent for one claimed item: renders the brief into its prompt, starts it with
 * its own flags and only its own credentials, kills it at `budget.wall_clock`, and reads its
 * structured output back into a stop and a cost (with the wall clock measured here).
 */
export function agentDispatcher(options: AgentDispatcherOptions) {
  const { preset } = options;
  // Only the epoch is read: the agent job holds no claim, just the epoch it was dispatched with.
  // Whatever the agent says (its final message becomes the stop reason) is masked once, here.
  return async (claim: Pick<ClaimToken, "epoch">, brief: Brief, tier: string, signal: AbortSignal, share?: RunShare): Promise<RunResult> => maskRunResult(await runOne(claim, brief, tier, signal, share), options.secrets);
  async function runOne(claim: Pick<ClaimToken, "epoch">, brief: Brief, tier: string, signal: AbortSignal, share?: RunShare): Promise<RunResult> {
    const runDir = join(options.stateDir, "runs", `${encodeURIComponent(brief.id)}.e${claim.epoch}`);
    await mkdir(runDir, { recursive: true });
    const briefPath = join(runDir, "brief.json");
    const resultPath = join(runDir, "result.json");
    const promptFile = join(runDir, "prompt.md");
    const stdoutPath = join(runDir, "agent.stdout");
    const stderrPath = join(runDir, "agent.stderr");
    const prompt = renderBriefPrompt(brief, { ...options.target, resultFile: resultPath, explicitFinish: preset.explicitFinish });
    await writeFile(briefPath, `${JSON.stringify(brief, null, 2)}\n`);
    await writeFile(promptFile, prompt);
    const invocation = preset.invocation({ brief, prompt, promptFile, resultFile: resultPath, runDir, allowedFiles: await allowedFiles(brief, options.cwd), ...(share === undefined ? {} : { usd: share.usd }) });
    const env = agentEnv(preset, options.env, options.extraEnv ?? [], {
      ...invocation.env,
      BOSUN_ITEM: brief.id,
      BOSUN_BRIEF: briefPath,
      BOSUN_EPOCH: String(claim.epoch),
      BOSUN_RESULT: resultPath,
      BOSUN_TIER: tier,
      ...(share === undefined ? {} : { BOSUN_BUDGET_USD: String(share.usd) }),
    });
    const words = [invocation.executable, ...invocation.args];
    // stdout is the agent's structured output: kept whole in a file, apart from its chatter.
    const command = `exec ${words.map(shellQuote).join(" ")} >${shellQuote(stdoutPath)} 2>${shellQuote(stderrPath)}`;
    const shown = words.map((w) => (w === prompt ? "<prompt>" : w.length > 120 ? `${w.slice(0, 117)}...` : w)).map(shellQuote).join(" ");
    const redact = (text: string): string => redactSecrets(text, options.secrets);
    const started = Date.now();
    const run = await runShell({ command, cwd: options.cwd, env, timeoutMs: brief.budget.wall_clock * 1000, signal, dieWithParent: true });
    const wallClock = Math.round((Date.now() - started) / 10) / 100;
    // Read back through the reader that never blocks: the agent can leave a FIFO or a device there.
    const out = readAgentOutput(stdoutPath);
    const err = readAgentOutput(stderrPath);
    const { text: stdout } = out;
    const { text: stderr } = err;
    const report = preset.readOutput({ stdout, stderr, exit: run.exit });
    // Checked as every cost is: a preset's 1e999 or an overflowing token sum is left out and said.
    const checked = checkRunCost({ wall_clock_s: wallClock, ...(report.tokens === undefined ? {} : { tokens: report.tokens }), ...(report.usd === undefined ? {} : { usd: report.usd }) });
    const cost: RunCost = checked.cost;
    // Masked whole before it is cut into lines: a multi-line secret (a private key) matches no single line.
    const tail = redact(stderr).replace(/\s+$/, "").split("\n").filter((l) => l !== "").slice(-15);
    const unread = [out.problem, err.problem].filter((p): p is string => p !== undefined);
    const evidence = { command: redact(shown), exit: run.exit, lines: [redact(report.summary), ...tail, ...unread, ...(checked.problem === undefined ? [] : [`${preset.name} reported ${checked.problem}`])] };
    if (run.killedFor === "timeout") return { stop: outOfBudget("wall_clock", `killed after ${brief.budget.wall_clock}s`), evidence, cost };
    if (run.killedFor === "aborted") return { stop: failed("unclassified", "stopped: the claim was lost"), evidence, cost };
    if (run.error !== undefined) return { stop: failed("unclassified", run.error), evidence, cost };
    // Its structured output could not be read: what it says of its stop is unknown.
    if (out.problem !== undefined && out.cut !== true) return { stop: failed("unclassified", out.problem), evidence, cost };
    if (run.exit === 127 && stdout === "") return { stop: failed("unclassified", `${invocation.executable}: not found on PATH`), evidence, cost };
    return { stop: combineStops(report.stop, readResultFile(resultPath)?.stop, preset.explicitFinish), evidence, cost };
  }
}

/** The tracked files the brief allows (aider's file list); none outside a git work tree. */
async function allowedFiles(brief: Brief, cwd: string): Promise<string[]> {
  const listed = await runGit(["ls-files", "-z"], cwd);
  if (!listed.ok) return [];
  const allowed = compileAllowedPaths(brief.constraints.paths);
  return listed.stdout.split("\0").filter((p) => p !== "" && allowed.allows(p));
}

/** The most of an agent's stdout or stderr that is read: the end, where its final report is. */
export const MAX_AGENT_OUTPUT_BYTES = 16 * 1024 * 1024;

/** An agent's output file, or "" and what kept it from being read whole. */
function readAgentOutput(path: string): { text: string; problem?: string; cut?: true } {
  const read = readBoundedFile(path, { most: MAX_AGENT_OUTPUT_BYTES, symlinks: "refuse", over: "tail" });
  const name = basename(path);
  if (!read.ok) return read.missing ? { text: "" } : { text: "", problem: `${name}: ${read.problem}` };
  if (read.skipped > 0) return { text: read.text, problem: `${name}: only its last ${MAX_AGENT_OUTPUT_BYTES} bytes were read, ${read.skipped} before them were not`, cut: true };
  return { text: read.text };
}
