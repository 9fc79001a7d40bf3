import { appendFile, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Brief } from "../../core/brief/brief.js";
import type { ClaimToken } from "../../core/claims/claim-token.js";
import type { RunResult } from "../../core/engine/engine-loop.js";
import { redactSecrets } from "../../core/redact/redact-secrets.js";
import { parseStop } from "../../core/stop/parse-stop.js";
import { failed, done, outOfBudget } from "../../core/stop/stop.js";
import { runShell } from "./run-shell.js";

/** Exit code a worker uses for "transient, try again" (EX_TEMPFAIL). */
export const EXIT_RETRY = 75;

export interface ProcessDispatcherOptions {
  readonly command: string;
  readonly stateDir: string;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Values masked in evidence and logs. */
  readonly secrets: readonly string[];
}

/**
 * Runs a worker command for one claimed item (DESIGN.md, `--run CMD`): the brief as JSON in
 * $BOSUN_BRIEF, its stop read from $BOSUN_RESULT when written, else from the exit code
 * (0 done, 75 retry, anything else cannot-classify). `budget.wall_clock` kills the process group.
 */
export function processDispatcher(options: ProcessDispatcherOptions) {
  return async (claim: Pick<ClaimToken, "epoch">, brief: Brief, tier: string, signal: AbortSignal): Promise<RunResult> => {
    const runDir = join(options.stateDir, "runs", `${encodeURIComponent(brief.id)}.e${claim.epoch}`);
    await mkdir(runDir, { recursive: true });
    const briefPath = join(runDir, "brief.json");
    const resultPath = join(runDir, "result.json");
    const logPath = join(runDir, "output.log");
    await writeFile(briefPath, `${JSON.stringify(brief, null, 2)}\n`);
    const redact = (text: string): string => redactSecrets(text, options.secrets);
    let log = Promise.resolve();
    const run = await runShell({
      command: options.command,
      cwd: options.cwd,
      env: { ...options.env, BOSUN_ITEM: brief.id, BOSUN_BRIEF: briefPath, BOSUN_EPOCH: String(claim.epoch), BOSUN_RESULT: resultPath, BOSUN_TIER: tier },
      timeoutMs: brief.budget.wall_clock * 1000,
      signal,
      dieWithParent: true,
      onOutput: (chunk) => {
        log = log.then(() => appendFile(logPath, redact(chunk)));
      },
    });
    await log.catch(() => undefined);
    const evidence = { command: options.command, exit: run.exit, lines: run.tail.map(redact) };
    if (run.killedFor === "timeout") return { stop: outOfBudget("wall_clock", `killed after ${brief.budget.wall_clock}s`), evidence };
    if (run.killedFor === "aborted") return { stop: failed("unclassified", "stopped: the claim was lost"), evidence };
    if (run.error !== undefined) return { stop: failed("unclassified", run.error), evidence };
    const written = await readResult(resultPath);
    if (written !== undefined) {
      if (written.ok) return { stop: written.stop, evidence };
      return { stop: failed("unclassified", `result file is not a valid stop: ${written.problem}`), evidence };
    }
    if (run.exit === 0) return { stop: done(), evidence };
    if (run.exit === EXIT_RETRY) return { stop: failed("retry", `exit ${EXIT_RETRY} (transient)`), evidence };
    return { stop: failed("unclassified", run.exit === null ? `ended by ${run.signal ?? "a signal"}` : `exit ${run.exit}`), evidence };
  };
}

async function readResult(path: string): Promise<ReturnType<typeof parseStop> | undefined> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch {
    return undefined;
  }
  try {
    return parseStop(JSON.parse(text));
  } catch (err) {
    return { ok: false, problem: `not JSON (${err instanceof Error ? err.message : String(err)})` };
  }
}
