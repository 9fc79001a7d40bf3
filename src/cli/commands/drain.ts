import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { relative, resolve } from "node:path";
import type { Brief } from "../../core/brief/brief.js";
import { formatProblems } from "../../core/brief/brief.js";
import type { ClaimStore } from "../../core/claims/claim-store.js";
import { GuardedClaimStore } from "../../core/claims/guarded-claim-store.js";
import { Engine } from "../../core/engine/engine.js";
import { ENGINE_DEFAULTS, exponentialBackoff } from "../../core/engine/engine-options.js";
import type { Journal } from "../../core/journal/journal-event.js";
import { teeJournal } from "../../core/journal/tee-journal.js";
import { POLICY_NAMES } from "../../core/queue/queue-policy.js";
import { redactSecrets } from "../../core/redact/redact-secrets.js";
import { done } from "../../core/stop/stop.js";
import { BriefFolderLoop } from "../../adapters/local/brief-folder-loop.js";
import type { BriefDispatcher } from "../../adapters/local/brief-folder-loop.js";
import { FileClaimStore } from "../../adapters/local/file-claim-store.js";
import { FaultReportingClaimStore } from "../../adapters/local/fault-reporting-claim-store.js";
import { FileJournal } from "../../adapters/local/file-journal.js";
import { processDispatcher } from "../../adapters/local/process-dispatcher.js";
import { agentDispatcher } from "../../adapters/agents/agent-dispatcher.js";
import { AGENT_NAMES } from "../../core/agents/agent-preset.js";
import { secretValues } from "../../adapters/local/secret-values.js";
import { systemClock } from "../../adapters/local/system-clock.js";
import { MemoryClaimStore } from "../../adapters/memory/memory-claim-store.js";
import { terminalText } from "../terminal-text.js";
import { TurnWriter } from "../turn-writer.js";
import type { CliCommand, CliIo } from "../cli-io.js";
import type { EarlierLand } from "../drain-report.js";
import { DrainTally, drainLine, earlierLands, prefixedOutput } from "../drain-report.js";
import { usageError as commandUsageError } from "../usage-error.js";
import { parseDrainArgs } from "../parse-drain-args.js";
import type { BudgetCap } from "../../core/budget/budget-cap.js";
import { toMicros } from "../../core/budget/budget-cap.js";
import type { EngineBudget } from "../../core/engine/engine-options.js";
import { FileSpendLedger, SpendLedgerError } from "../../adapters/local/file-spend-ledger.js";
import { MemorySpendLedger } from "../../adapters/memory/memory-spend-ledger.js";
import { recordBudgetCaps } from "../../adapters/local/budget-caps-record.js";
import { earlierCosts } from "../earlier-costs.js";

const usage = `Usage: bosun drain [--briefs DIR] [--pool N] (--run CMD | --agent NAME | --dry-run) [--policy P] [--state DIR] [--lease DUR]
                   [--attempts N] [--backoff DUR] [--budget-usd N] [--item-usd N] [--holder NAME] [--quiet] [--json]

Runs the engine over a folder of briefs until idle: no brief ready and none in flight anywhere in
the state folder. Prints one line per event and writes the journal to <state>/journal.jsonl.

  --briefs DIR     folder of brief files (default: briefs)
  --pool N         items in flight at once (default: ${ENGINE_DEFAULTS.pool})
  --run CMD        worker command, run through the shell with BOSUN_ITEM, BOSUN_BRIEF (the brief as
                   JSON), BOSUN_EPOCH and BOSUN_RESULT (write your stop there as JSON). Without a
                   result: exit 0 is done, 75 is retry, anything else needs a human.
  --agent NAME     run an agent preset: ${AGENT_NAMES.join(" | ")} (command = --run CMD); it renders
                   the brief for that agent, hands it only its own credentials, and reads its stop
                   and cost back (see docs/agents.md)
  --dry-run        claim in memory and land every item ok without running anything
  --policy P       ${POLICY_NAMES.join(" | ")} (default: hybrid)
  --state DIR      claims, journal and results (default: .bosun)
  --lease DUR      claim lease, renewed at a third of its length (default: 5m)
  --attempts N     attempts before a transient failure goes to a human (default: ${ENGINE_DEFAULTS.maxAttempts})
  --backoff DUR    delay before the first retry, doubling after (default: 1s)
  --budget-usd N   what this state folder's drains may spend in the current UTC day, all together
                   (US dollars): an item is dispatched only when its reservation fits; the others
                   stay queued, held by budget, for a later drain (see docs/budgets.md)
  --item-usd N     what an item reserves when its brief sets no budget.usd (default: the 90th
                   percentile of what its task class reported costing; an item with neither is
                   not claimed while --budget-usd is set)
  --holder NAME    claim holder name (default: drain-<pid>-<random>)
  --quiet          do not show workers' output (it is still in <state>/runs/<item>.e<epoch>/output.log)
  --json           stdout as JSON lines: each event as the journal writes it, then {"summary": {...}};
                   workers' output goes to stderr

Each worker's output is shown as it runs, every line prefixed with its item: [item] line.
The drain ends with a summary: how many ran, ok, failed, need a human, where the logs are, what next.

Ctrl-C (or SIGTERM) stops the workers and releases their items for the next drain at once.

Exit: 0 every brief landed ok · 1 any brief is invalid, failed, was refused or needs a human · 2 usage error
      · 75 work remains only because of --budget-usd (held by budget: run again when the day rolls
      over or with a higher cap) · 130 interrupted`;

async function run(args: readonly string[], io: CliIo): Promise<number> {
  const parsed = await parseDrainArgs(args, io.cwd);
  if (!parsed.ok) return usageError(io, parsed.message);
  const { pool, attempts, policy, lease, backoffMs, dryRun, budgetUsd, itemUsd, agent, preset, briefsDir, stateDir } = parsed.args;

  const secrets = secretValues(io.env);
  // Lines for stdout go out once a turn (turn-writer.ts); a line for stderr writes them first.
  const stdout = new TurnWriter(io.stdout);
  const stderr = (text: string): void => {
    stdout.flush();
    io.stderr.write(text);
  };
  const holder = parsed.args.holder ?? `drain-${process.pid}-${randomBytes(2).toString("hex")}`;
  // A fault (briefs folder gone, state folder full or deleted) stops the engine, which releases
  // every claim; the drain then exits 1 naming it. The engine is only built below, hence the holder.
  const stopper: { engine?: Engine<Brief> } = {};
  let fault: string | undefined;
  const onFault = (message: string): void => {
    if (fault === undefined) stderr(`bosun drain: ${message}: stopping; in-flight workers are stopped and their claims released\n`);
    fault ??= message;
    stopper.engine?.stop(`fault: ${message}`);
  };
  const journalPath = resolve(stateDir, "journal.jsonl");
  const journalText = dryRun ? "" : await readFile(journalPath, "utf8").catch(() => "");
  const earlier = dryRun ? new Map<string, EarlierLand>() : earlierLands(journalText);
  // The cap covers the state folder's current UTC day, across every drain over it.
  const caps: BudgetCap[] = budgetUsd === undefined ? [] : [{ name: "--budget-usd", window: "day", micros: toMicros(budgetUsd) }];
  const budget: EngineBudget | undefined =
    budgetUsd === undefined && itemUsd === undefined
      ? undefined
      : {
          ledger: dryRun ? new MemorySpendLedger(caps) : new FileSpendLedger({ stateDir, caps, holder }),
          ...(itemUsd === undefined ? {} : { itemCap: toMicros(itemUsd) }),
          pastCosts: earlierCosts(journalText),
        };
  // What the spend will be counted against, for `bosun stats`: recorded as this drain starts.
  if (budget !== undefined && !dryRun) {
    await recordBudgetCaps(stateDir, { holder, at: systemClock.now(), caps, ...(itemUsd === undefined ? {} : { itemCap: toMicros(itemUsd) }) }).catch((err: unknown) => {
      io.stderr.write(`bosun drain: the caps could not be recorded for bosun stats (${err instanceof Error ? err.message : String(err)}); the drain goes on under them\n`);
    });
  }
  const tally = new DrainTally();
  const asJson = parsed.args.json;
  // With --json, stdout is JSON lines only (each event as the journal writes it, then the summary):
  // worker output goes to stderr.
  const output = prefixedOutput((text) => (asJson ? stderr(text) : stdout.write(text)));
  const trace: Journal = {
    append: (event) => {
      tally.observe(event);
      if (event.event === "LAND") output.flush(event.item);
      // Masked as the journal file is: a stop reason or evidence line can quote the environment.
      stdout.write(`${redactSecrets(asJson ? JSON.stringify(event) : drainLine(event, earlier), secrets)}\n`);
    },
  };
  // Appended in batches of at most JOURNAL_BATCH_MS (docs/cli.md says what a crash can lose).
  const fileJournal = dryRun ? undefined : new FileJournal(journalPath, secrets, onFault, { batchMs: JOURNAL_BATCH_MS });
  const journal = fileJournal === undefined ? trace : teeJournal(fileJournal, trace);
  // Every claim record names the brief it is for: another brief with the same id is not this one.
  const contentOf = (key: string): string | undefined => loopRef.loop?.contentOf(key);
  const loopRef: { loop?: BriefFolderLoop } = {};
  const store = dryRun ? new MemoryClaimStore() : new FaultReportingClaimStore(new FileClaimStore(stateDir, contentOf), onFault);
  const claims: ClaimStore = new GuardedClaimStore(store, store);
  const dispatcher: BriefDispatcher = dryRun
    ? async () => ({ stop: done("dry run: nothing was run") })
    : preset !== undefined
      ? agentDispatcher({ preset, stateDir, cwd: io.cwd, env: io.env, secrets })
      : processDispatcher({ command: parsed.args.run as string, stateDir, cwd: io.cwd, env: io.env, secrets, onFault, ...(parsed.args.quiet ? {} : { onOutput: output.chunk }) });
  const loop = new BriefFolderLoop({
    briefsDir,
    dispatcher,
    ...(dryRun ? {} : { resultsDir: resolve(stateDir, "results") }),
    onFault,
    onInvalid: (folder) => stderr(`invalid brief${folder.invalid.length > 1 ? "s" : ""} (never claimed):\n${indent(terminalText(formatProblems(folder.problems)))}\n`),
  });
  loopRef.loop = loop;

  const engine = new Engine(loop, claims, systemClock, journal, {
    holder,
    pool,
    leaseMs: lease * 1000,
    maxAttempts: attempts,
    backoffMs: exponentialBackoff(backoffMs, 5 * 60_000),
    pollMs: Math.min(ENGINE_DEFAULTS.pollMs, (lease * 1000) / 3),
    policy,
    ...(budget === undefined ? {} : { budget }),
    // Journalled on each DISPATCH: `bosun stats` says what an accepted task cost per agent.
    agent: agent ?? (dryRun ? "dry-run" : "command"),
  });
  stopper.engine = engine;
  // Ctrl-C stops cleanly: workers are told to stop and their items released for the next drain
  // at once (not after their lease). A second Ctrl-C quits without waiting.
  let interrupts = 0;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (++interrupts > 1) {
      stdout.flush();
      process.exit(130);
    }
    stderr(`bosun drain: ${signal}: stopping the workers and releasing their items (again to quit now)\n`);
    engine.stop(signal);
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  let summary;
  try {
    summary = await engine.run();
    await loop.flushed();
  } catch (err) {
    // The spend ledger cannot be read: nothing is dispatched on a budget nobody knows.
    if (!(err instanceof SpendLedgerError)) throw err;
    stderr(`bosun drain: ${err.message}\n`);
    return 1;
  } finally {
    fileJournal?.flush();
    stdout.flush();
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
  if (fault !== undefined) {
    stderr(`bosun drain: stopped: ${fault}\n`);
    return 1;
  }
  if (summary.interrupted !== undefined) {
    stderr(`bosun drain: interrupted (${summary.interrupted}); run it again to go on\n`);
    return 130;
  }

  const notOk = [...summary.items].filter(([, s]) => s.status !== "ok");
  for (const id of loop.removed) stderr(`${terminalText(id)}: removed from the briefs folder before it ran: not run\n`);
  const shown = (path: string): string => relative(io.cwd, path) || ".";
  const rerun = dryRun ? "bosun drain --dry-run" : "bosun drain --run ...";
  const where = dryRun ? {} : { runsDir: shown(resolve(stateDir, "runs")), journal: shown(journalPath) };
  // Summaries quote the workers' stops, which can quote the environment: masked like the journal.
  const text = asJson ? JSON.stringify({ summary: tally.summaryJson({ items: summary.items, invalid: loop.invalid, ...where }) }) : tally.summary({ items: summary.items, invalid: loop.invalid, ...where, rerun, dryRun }).join("\n");
  stdout.write(`${redactSecrets(text, secrets)}\n`);
  stdout.flush();
  if (notOk.length === 0 && loop.invalid.size === 0) return 0;
  // Work left only because of the budget is paused, not failed: its own status, for scripts.
  return loop.invalid.size === 0 && notOk.every(([, s]) => s.status === "held") ? EXIT_HELD_BY_BUDGET : 1;
}

/** The drain's exit when what remains is held by budget (EX_TEMPFAIL: try again later). */
export const EXIT_HELD_BY_BUDGET = 75;

const usageError = (io: CliIo, message: string): number => commandUsageError(io, "drain", message);

/** The longest the drain holds journal events before it appends them in one write. */
export const JOURNAL_BATCH_MS = 50;

const indent = (text: string): string =>
  text
    .split("\n")
    .map((l) => `  ${l}`)
    .join("\n");

const drain: CliCommand = { summary: "run the engine over a folder of briefs until idle", usage, run };
export default drain;
