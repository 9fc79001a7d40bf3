import { writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { readTraceFile } from "../../adapters/local/read-trace-file.js";
import type { TraceSource } from "../../core/replay/build-replay-report.js";
import { buildReplayReport } from "../../core/replay/build-replay-report.js";
import { buildTrace, DEFAULT_DURATION_OPTIONS } from "../../core/replay/build-trace.js";
import { generateTraceCsv } from "../../core/replay/generate-trace-csv.js";
import { importBeadsCsv } from "../../core/replay/import-beads-csv.js";
import { renderReplayHtml } from "../../core/replay/render-replay-html.js";
import { renderReplayTable } from "../../core/replay/render-replay-table.js";
import { REPLAY_POLICY_NAMES } from "../../core/replay/replay-policies.js";
import { traceCostProblem } from "../../core/replay/replay-budget.js";
import { runReplay } from "../../core/replay/run-replay.js";
import type { ImportResult } from "../../core/replay/trace.js";
import type { CliCommand, CliIo } from "../cli-io.js";
import { argsErrorMessage, usageError } from "../usage-error.js";
import { progressBar } from "../progress-bar.js";

const DEFAULT_WORKERS = 8;

const usage = `Usage: bosun replay TRACE... [--policy a,b] [--workers N] [--budget-usd N] [--format table|json|html] [--out FILE] [--seed N]

Replays recorded traces under scheduling policies, arrivals held fixed, and measures each:
weighted and mean flow time, p95 flow time and worst wait per band, unblocking throughput, the
gap to a lower bound no policy can beat, and an audit of idle workers beside waiting work.
Several TRACE files are merged into one trace. docs/replay.md explains every number.

TRACE       a beads CSV (work or events-claim), a beads issues.jsonl, a Bosun journal
            (.bosun/journal.jsonl), or gen:N — a synthetic trace of N items (see --seed)
  --policy LIST      comma-separated, from ${REPLAY_POLICY_NAMES.join(", ")} (default: all)
  --workers N        workers per pool (default ${DEFAULT_WORKERS})
  --budget-usd N     also replay each policy under a daily money budget of N US dollars (UTC days),
                     as a drain's --budget-usd applies it, and report how many items it completes
                     and their weighted flow time; needs a trace that records costs (a Bosun journal)
  --format F         table (default), json (DESIGN.md "Replay report"), or html
  --out FILE         write the report to FILE instead of stdout
  --seed N           seed of gen:N traces (default 1); the replay itself uses no randomness
  --lead-scale X     multiplier of lead time when a trace has no observed durations (default ${DEFAULT_DURATION_OPTIONS.leadScale})
  --progress         show a progress bar even when stderr is not a terminal

Exit: 0 · 2 usage error (including a trace file that cannot be read)`;

const fail = (io: CliIo, message: string): number => {
  return usageError(io, "replay", message);
};

const positiveInt = (s: string): number | undefined => (/^\d+$/.test(s) && Number(s) > 0 ? Number(s) : undefined);

async function run(args: readonly string[], io: CliIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      options: {
        policy: { type: "string" },
        workers: { type: "string" },
        format: { type: "string" },
        json: { type: "boolean" },
        out: { type: "string" },
        seed: { type: "string" },
        "lead-scale": { type: "string" },
        "budget-usd": { type: "string" },
        progress: { type: "boolean" },
      },
      allowPositionals: true,
      strict: true,
    });
  } catch (err) {
    return fail(io, argsErrorMessage(err));
  }
  const v = parsed.values;
  const files = parsed.positionals;
  if (files.length === 0) return fail(io, "no TRACE given");
  const policies = v.policy === undefined ? [...REPLAY_POLICY_NAMES] : v.policy.split(",").map((s) => s.trim()).filter((s) => s !== "");
  const unknown = policies.filter((p) => !(REPLAY_POLICY_NAMES as readonly string[]).includes(p));
  if (policies.length === 0 || unknown.length > 0) return fail(io, `unknown policy ${unknown.join(", ") || "(none given)"}; known: ${REPLAY_POLICY_NAMES.join(", ")}`);
  const workers = v.workers === undefined ? DEFAULT_WORKERS : positiveInt(v.workers);
  if (workers === undefined) return fail(io, `--workers must be a positive integer, not '${v.workers}'`);
  // --json is the flag every command shares; --format json stays as its alias.
  if (v.json === true && v.format !== undefined && v.format !== "json") return fail(io, `--json and --format ${v.format} disagree; give one`);
  const format = v.json === true ? "json" : (v.format ?? "table");
  if (format !== "table" && format !== "json" && format !== "html") return fail(io, `--format must be table, json or html, not '${format}'`);
  const seed = v.seed === undefined ? 1 : /^\d+$/.test(v.seed) ? Number(v.seed) : undefined;
  if (seed === undefined) return fail(io, `--seed must be a non-negative integer, not '${v.seed}'`);
  const leadScale = v["lead-scale"] === undefined ? DEFAULT_DURATION_OPTIONS.leadScale : Number(v["lead-scale"]);
  if (!(leadScale > 0) || !Number.isFinite(leadScale)) return fail(io, `--lead-scale must be a positive number, not '${v["lead-scale"]}'`);

  const budgetText = v["budget-usd"];
  const budgetUsd = budgetText === undefined ? undefined : /^\d+(\.\d+)?$/.test(budgetText.trim()) ? Number(budgetText) : Number.NaN;
  if (budgetUsd !== undefined && !(budgetUsd > 0 && budgetUsd < 1e9)) return fail(io, `--budget-usd must be a number of US dollars above 0, such as 25, not '${budgetText ?? ""}'`);

  const imports: ImportResult[] = [];
  for (const file of files) {
    const gen = /^gen:(\d+)$/.exec(file);
    if (gen !== null) {
      imports.push(importBeadsCsv(generateTraceCsv({ items: Number(gen[1]), seed, workers }), `${file} (seed ${seed})`));
      continue;
    }
    const read = readTraceFile(resolve(io.cwd, file), file);
    if ("problem" in read) return fail(io, `cannot read ${file}: ${read.problem}`);
    imports.push(read);
  }
  // Not one item in any file (a file that is no trace at all, an empty one): a table of dashes
  // with exit 0 would read as a replay that ran. Say what each file was taken for instead.
  if (imports.every((r) => r.items.length === 0)) {
    const why = imports.map((r) => `${r.source}: ${r.problems[0]?.message ?? "no item"}`).join("; ");
    return fail(io, `nothing to replay: no item in ${imports.length === 1 ? "the trace" : "any trace"} (${why})`);
  }
  const trace = buildTrace(imports, { ...DEFAULT_DURATION_OPTIONS, leadScale });
  const sources: TraceSource[] = imports.map((r) => ({ file: r.source, format: r.format, items: r.items.length }));
  const costProblem = budgetUsd === undefined ? undefined : traceCostProblem(trace);
  if (costProblem !== undefined) return fail(io, `--budget-usd: ${costProblem}`);
  const isTty = (io.stderr as NodeJS.WriteStream).isTTY === true;
  const bar = v.progress === true || isTty ? progressBar(io.stderr, "replay") : undefined;
  const result = runReplay(trace, { policies, workers, ...(budgetUsd === undefined ? {} : { budgetUsd }), ...(bar === undefined ? {} : { onProgress: bar.update }) });
  bar?.done();
  const report = buildReplayReport(trace, sources, workers, result.metrics, result.bound, result.budget);
  const text = format === "json" ? `${JSON.stringify(report, null, 2)}\n` : format === "html" ? renderReplayHtml(report, result.queues) : renderReplayTable(report);
  if (v.out !== undefined) {
    await writeFile(resolve(io.cwd, v.out), text);
    io.stderr.write(`bosun replay: wrote ${v.out}\n`);
  } else io.stdout.write(text);
  return 0;
}

const command: CliCommand = { summary: "replay recorded traces under scheduling policies and measure each", usage, run };
export default command;
