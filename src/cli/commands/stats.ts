import { dirname, resolve } from "node:path";
import { parseArgs } from "node:util";
import { readBudgetCaps } from "../../adapters/local/budget-caps-record.js";
import { readSpendBook } from "../../adapters/local/file-spend-ledger.js";
import { readJournal } from "../../adapters/local/read-journal.js";
import { systemClock } from "../../adapters/local/system-clock.js";
import type { SpendBook } from "../../core/budget/spend-book.js";
import { fleetMetrics, recordsIn } from "../../core/metrics/fleet-metrics.js";
import { moneyMetrics } from "../../core/metrics/money-metrics.js";
import { moneyReport } from "../../core/metrics/money-report.js";
import { renderMoneyReport } from "../../core/metrics/render-money-report.js";
import type { MetricsWindow } from "../../core/metrics/fleet-metrics.js";
import { parseWindowBound } from "../../core/metrics/parse-window-bound.js";
import { renderFleetMetrics } from "../../core/metrics/render-fleet-metrics.js";
import type { CliCommand, CliIo } from "../cli-io.js";
import { argsErrorMessage, usageError } from "../usage-error.js";

const DEFAULT_JOURNAL = ".bosun/journal.jsonl";
const MAX_PROBLEMS_SHOWN = 20;

const usage = `Usage: bosun stats [--state DIR] [--journal FILE] [--since DATE] [--until DATE] [--format table|json]

Fleet metrics from the journal over a window: the stop-reason mix, the gate rejection rate by
task class, and the cost per accepted task; and money: spend today and this week against each cap
the state folder's drains recorded, where the window's money went (accepted, not accepted,
refused, failed), and cost per accepted task by task class, agent and tier (see docs/stats.md).

  --state DIR      the state folder: its journal, spend ledger and caps (default: the journal's folder)
  --journal FILE   the JSONL journal (default DIR/journal.jsonl, else ${DEFAULT_JOURNAL})
  --since DATE     first instant counted: 2026-11-01 (midnight UTC) or 2026-11-01T09:00Z
  --until DATE     end of the window, exclusive; a bare date counts that whole day
  --format F       table (default) or json

Malformed journal lines are reported on stderr with their line numbers and skipped.
The caps and the ledger are read as they are now, whatever the window.
Exit: 0 · 1 the journal or the spend ledger cannot be read · 2 usage error`;

async function run(args: readonly string[], io: CliIo): Promise<number> {
  const fail = (message: string) => {
    return usageError(io, "stats", message);
  };
  let values;
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: { state: { type: "string" }, journal: { type: "string" }, since: { type: "string" }, until: { type: "string" }, format: { type: "string" }, json: { type: "boolean" } },
      allowPositionals: false,
      strict: true,
    }));
  } catch (err) {
    return fail(argsErrorMessage(err));
  }
  // --json is the flag every command shares; --format json stays as its alias.
  if (values.json === true && values.format !== undefined && values.format !== "json") return fail(`--json and --format ${values.format} disagree; give one`);
  if (values.json === true) values.format = "json";
  values.format ??= "table";
  if (values.format !== "table" && values.format !== "json") return fail(`--format must be table or json, not '${values.format}'`);
  const window: { -readonly [K in keyof MetricsWindow]: MetricsWindow[K] } = {};
  for (const bound of ["since", "until"] as const) {
    const text = values[bound];
    if (text === undefined) continue;
    const ms = parseWindowBound(text, bound);
    if (ms === undefined) return fail(`--${bound} '${text}' is not a date (2026-11-01) or a time with a zone (2026-11-01T09:00Z)`);
    window[bound] = ms;
  }
  if (window.since !== undefined && window.until !== undefined && window.since >= window.until) return fail("--since must be before --until");

  const journalName = values.journal ?? (values.state === undefined ? DEFAULT_JOURNAL : `${values.state}/journal.jsonl`);
  const path = resolve(io.cwd, journalName);
  const stateDir = values.state === undefined ? dirname(path) : resolve(io.cwd, values.state);
  const read = await readJournal(path);
  if (!read.ok) {
    io.stderr.write(`bosun stats: ${read.reason}\n`);
    return 1;
  }
  for (const p of read.problems.slice(0, MAX_PROBLEMS_SHOWN)) io.stderr.write(`${journalName}:${p.line}: skipped: ${p.reason}\n`);
  if (read.problems.length > MAX_PROBLEMS_SHOWN) io.stderr.write(`... and ${read.problems.length - MAX_PROBLEMS_SHOWN} more malformed lines\n`);
  let book: SpendBook | undefined;
  try {
    book = await readSpendBook(stateDir);
  } catch (err) {
    io.stderr.write(`bosun stats: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
  const caps = await readBudgetCaps(stateDir);
  if (caps.problem !== undefined) io.stderr.write(`bosun stats: ${caps.problem}: the caps are shown as unrecorded\n`);

  const metrics = fleetMetrics(read.records, window);
  const money = moneyReport(moneyMetrics(recordsIn(read.records, window)), book, caps.record, systemClock.now());
  if (values.format === "json") io.stdout.write(`${JSON.stringify({ ...metrics, money, problems: read.problems }, null, 2)}\n`);
  else io.stdout.write(`${renderFleetMetrics(metrics)}\n${renderMoneyReport(money)}`);
  return 0;
}

const stats: CliCommand = { summary: "fleet metrics from the journal: stop mix, gate rejections, cost per accepted task, money against the caps", usage, run };
export default stats;
