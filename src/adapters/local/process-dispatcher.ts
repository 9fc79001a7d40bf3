import { statSync } from "node:fs";
import { appendFile, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Brief } from "../../core/brief/brief.js";
import type { ClaimToken } from "../../core/claims/claim-token.js";
import type { RunResult, RunShare } from "../../core/engine/engine-loop.js";
import { costFromResult } from "./cost-from-result-file.js";
import { failed, done, outOfBudget } from "../../core/stop/stop.js";
import { maskRunResult } from "../../core/redact/mask-run-result.js";
import { maskedStream } from "./masked-stream.js";
import { readResultFile } from "./read-result-file.js";
import type { OutputCut } from "./output-after-exit.js";
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
  /**
   * Told when the state folder fails under the drain (full disk, vanished, replaced): the drain
   * must stop, because the claims and attempt counts that keep work from running twice live there.
   */
  readonly onFault?: (message: string) => void;
  /** Each piece of a worker's output as it arrives, secrets masked (the drain shows it per item). */
  readonly onOutput?: (item: string, chunk: string) => void;
}

/** How long a worker's output pauses before its held whole lines are shown and logged. */
const QUIET_MS = 200;

/** How much of a worker's masked output is kept for the last lines of its evidence. */
const SHOWN_CHARS = 64 * 1024;
const TAIL_LINES = 20;

function lastLines(text: string): string[] {
  const lines = text.replace(/\s+$/, "").split("\n");
  return lines.length === 1 && lines[0] === "" ? [] : lines.slice(-TAIL_LINES);
}

/**
 * Runs a worker command for one claimed item (DESIGN.md, `--run CMD`): the brief as JSON in
 * $BOSUN_BRIEF, its stop read from $BOSUN_RESULT when written, else from the exit code
 * (0 done, 75 retry, anything else cannot-classify). `budget.wall_clock` kills the process group.
 * What the run reserved under the money caps is in $BOSUN_BUDGET_USD, for a worker that can keep to it.
 */
export function processDispatcher(options: ProcessDispatcherOptions) {
  const fault = (message: string): void => options.onFault?.(message);
  // The state folder's identity when the first worker started: a worker that deletes it (and the
  // attempt counts in it) must stop the drain, not be run again from epoch 1 without end.
  let identity: string | undefined;
  let known = false;
  const stateIdentity = (): string | undefined => {
    try {
      const st = statSync(options.stateDir);
      return `${st.dev}:${st.ino}`;
    } catch {
      return undefined;
    }
  };
  // Only the epoch of the claim is read: the work mode's agent phase runs with no claim token at all.
  // Whatever the run says (its result file's reason too) is masked once, here, for every place it is written.
  return async (claim: Pick<ClaimToken, "epoch">, brief: Brief, tier: string, signal: AbortSignal, share?: RunShare): Promise<RunResult> => maskRunResult(await runOne(claim, brief, tier, signal, share), options.secrets);
  async function runOne(claim: Pick<ClaimToken, "epoch">, brief: Brief, tier: string, signal: AbortSignal, share?: RunShare): Promise<RunResult> {
    if (!known) identity = stateIdentity();
    known = true;
    const before = identity;
    const runDir = join(options.stateDir, "runs", `${encodeURIComponent(brief.id)}.e${claim.epoch}`);
    const briefPath = join(runDir, "brief.json");
    const resultPath = join(runDir, "result.json");
    const logPath = join(runDir, "output.log");
    // Asynchronous, unlike the small checks around the run: creating a folder and a file can take
    // a millisecond on a busy disk, and this runs beside the engine, not on its path.
    try {
      await mkdir(runDir, { recursive: true });
      await writeFile(briefPath, `${JSON.stringify(brief, null, 2)}\n`);
    } catch (err) {
      const message = `cannot write to the state folder ${options.stateDir}: ${errorText(err)}`;
      fault(message);
      // Nothing ran: a later drain may try again once the folder is writable.
      return { stop: failed("retry", `${message}; not run`) };
    }
    let log = Promise.resolve();
    const masked = maskedStream(options.secrets);
    // The evidence's last lines come from the masked stream, not from the raw tail masked line by
    // line: a multi-line secret (a private key) matches no single line of it.
    let shown = "";
    const emit = (text: string): void => {
      if (text === "") return;
      shown += text;
      if (shown.length > 2 * SHOWN_CHARS) shown = shown.slice(-SHOWN_CHARS);
      options.onOutput?.(brief.id, text);
      log = log.then(() => appendFile(logPath, text));
    };
    // The stream holds back its last characters; when the worker goes quiet, its whole lines go out.
    let quiet: NodeJS.Timeout | undefined;
    let read = 0;
    const onChunk = (chunk: string): void => {
      read += chunk.length;
      emit(masked.write(chunk));
      clearTimeout(quiet);
      quiet = setTimeout(() => emit(masked.flushLines()), QUIET_MS);
      quiet.unref();
    };
    const started = performance.now();
    const run = await runShell({
      command: options.command,
      cwd: options.cwd,
      env: { ...options.env, BOSUN_ITEM: brief.id, BOSUN_BRIEF: briefPath, BOSUN_EPOCH: String(claim.epoch), BOSUN_RESULT: resultPath, BOSUN_TIER: tier, ...(share === undefined ? {} : { BOSUN_BUDGET_USD: String(share.usd) }) },
      timeoutMs: brief.budget.wall_clock * 1000,
      signal,
      dieWithParent: true,
      onOutput: onChunk,
    });
    clearTimeout(quiet);
    emit(masked.end());
    // A cut log says so where it stops, and the evidence ends with the same line.
    if (run.outputCut !== undefined) emit(`${shown === "" || shown.endsWith("\n") ? "" : "\n"}${cutLine(run.outputCut, read)}\n`);
    await log.catch((err: unknown) => fault(`cannot write ${logPath}: ${errorText(err)}`));
    const after = stateIdentity();
    if (before !== undefined && after !== before) {
      const message = `the state folder ${options.stateDir} ${after === undefined ? "vanished" : "was replaced"} while ${brief.id} ran (did the worker delete it?); its claims and attempt counts went with it`;
      fault(message);
      return { stop: failed("unclassified", message), evidence: { command: options.command, exit: run.exit, lines: lastLines(shown) } };
    }
    const wallClockMs = performance.now() - started;
    // One read of the result file, by the reader that never blocks: the stop and the cost both come from it.
    const file = readResultFile(resultPath);
    // The cost rides on every outcome (a failed run was paid for too); a malformed one is said in the evidence.
    const { cost, problem } = costFromResult(file?.json, wallClockMs);
    const evidence = { command: options.command, exit: run.exit, lines: problem === undefined ? lastLines(shown) : [...lastLines(shown), problem] };
    if (run.killedFor === "timeout") return { stop: outOfBudget("wall_clock", `killed after ${brief.budget.wall_clock}s`), evidence, cost };
    if (run.killedFor === "aborted") return { stop: failed("unclassified", "stopped: the claim was lost"), evidence, cost };
    if (run.error !== undefined) return { stop: failed("unclassified", run.error), evidence, cost };
    // Output was still coming when reading stopped: whatever the worker claims, its evidence is not whole.
    if (run.outputCut?.lost === true) return { stop: failed("unclassified", `output cut: ${run.outputCut.reason}`), evidence, cost };
    const written = file?.stop;
    if (written !== undefined) {
      if (written.ok) return { stop: written.stop, evidence, cost };
      return { stop: failed("unclassified", `result file is not a valid stop: ${written.problem}`), evidence, cost };
    }
    if (run.exit === 0) return { stop: done(), evidence, cost };
    if (run.exit === EXIT_RETRY) return { stop: failed("retry", `exit ${EXIT_RETRY} (transient)`), evidence, cost };
    return { stop: failed("unclassified", run.exit === null ? `ended by ${run.signal ?? "a signal"}` : `exit ${run.exit}`), evidence, cost };
  }
}

/** The line a cut output log ends with: where (characters read) and why. */
export function cutLine(cut: OutputCut, read: number): string {
  return `[bosun] output ${cut.lost ? "cut" : "ends"} here, after ${read} characters: ${cut.reason}`;
}

function errorText(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  return e.code !== undefined ? `${e.code}${e.message.includes(e.code) ? "" : `: ${e.message}`}`.replace(/, (open|mkdir|write|scandir) '.*'$/, "") : String(err);
}
