import { resolve } from "node:path";
import { FileJournal } from "../../adapters/local/file-journal.js";
import { runGit } from "../../adapters/local/run-git.js";
import { secretValues } from "../../adapters/local/secret-values.js";
import { systemClock } from "../../adapters/local/system-clock.js";
import type { Brief } from "../../core/brief/brief.js";
import { gateEvent } from "../../core/journal/gate-event.js";
import { journalEmitter } from "../../core/journal/journal-emitter.js";
import { taskClassOf } from "../../core/metrics/task-class.js";
import type { CliIo } from "../cli-io.js";

/**
 * `bosun gate --state DIR`: appends the verdict as a GATE event to DIR/journal.jsonl, the journal
 * `bosun drain --state DIR` writes, so `bosun stats` counts the gate Bosun ran, not a hand-made line.
 * The commit is the head resolved now (a branch name would move). Returns false, having said why
 * on stderr, when the event could not be written.
 */
export async function journalGateVerdict(io: CliIo, stateDir: string, brief: Brief, head: string, verdict: "pass" | "fail" | "could-not-check"): Promise<boolean> {
  const sha = await runGit(["rev-parse", "--verify", "--quiet", `${head}^{commit}`], io.cwd);
  if (!sha.ok) {
    io.stderr.write(`bosun gate: --state: cannot resolve ${head} to a commit, the verdict was not journalled: ${sha.message}\n`);
    return false;
  }
  const path = resolve(io.cwd, stateDir, "journal.jsonl");
  try {
    const emit = journalEmitter(new FileJournal(path, secretValues(io.env)), systemClock);
    emit(gateEvent({ item: brief.id, class: taskClassOf(brief), sha: sha.stdout.trim(), verdict, by: "cli" }));
  } catch (err) {
    io.stderr.write(`bosun gate: --state: cannot write ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}\n`);
    return false;
  }
  return true;
}
