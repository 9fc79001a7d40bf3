import { readBoundedFile } from "../../adapters/local/read-bounded-file.js";
import { basename, resolve } from "node:path";
import { parseArgs } from "node:util";
import type { BriefResult } from "../../core/brief/brief.js";
import { formatProblems } from "../../core/brief/brief.js";
import { briefHash, MAX_BRIEF_BYTES, parseBriefYaml } from "../../core/brief/parse-brief.js";
import { parseIssueBody } from "../../core/brief/parse-issue-body.js";
import { readGuardedYaml } from "../../core/brief/read-guarded-yaml.js";
import { terminalText } from "../terminal-text.js";
import type { CliCommand, CliIo } from "../cli-io.js";
import { EXIT_USAGE } from "../cli-io.js";
import { argsErrorMessage, usageError } from "../usage-error.js";

const usage = `Usage: bosun brief check FILE|- [--id ID]

Validates a brief and prints it normalized as JSON ({"brief": {...}, "hash": "sha256:..."}),
or every problem, each naming its field. FILE is a YAML brief; '-' reads stdin, which may be a
YAML brief or a GitHub issue body (the brief issue form's sections, or a fenced yaml block).

  --id ID   the brief's id when the source gives none (default: the file name, or 'stdin')

Exit: 0 valid · 1 invalid · 2 usage error`;

async function readStdin(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * Whether stdin holds an issue body rather than a YAML brief. A text that reads as a YAML mapping
 * with a `goal` is a brief, whatever it contains: a `### ...` comment or a string holding
 * ```yaml made the earlier marker test refuse valid briefs as "no brief found". Otherwise markdown
 * headings or a fenced yaml block mark an issue body; anything else is read as YAML, so its
 * syntax errors are the ones reported.
 */
function isIssueBody(text: string): boolean {
  const yaml = readGuardedYaml(text.replace(/^\uFEFF/, ""));
  if (yaml.ok && yaml.data !== null && typeof yaml.data === "object" && !Array.isArray(yaml.data) && "goal" in yaml.data) return false;
  return /^\uFEFF?#{3}\s|```ya?ml/m.test(text);
}

async function run(args: readonly string[], io: CliIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], options: { id: { type: "string" } }, allowPositionals: true, strict: true });
  } catch (err) {
    return usageError(io, "brief", argsErrorMessage(err));
  }
  const [sub, file, ...extra] = parsed.positionals;
  if (sub !== "check") return usageError(io, "brief", sub === undefined ? "say what to do: bosun brief check FILE|-" : `unknown subcommand '${sub}' (the one there is: check)`);
  if (file === undefined) return usageError(io, "brief", "check needs a FILE, or - to read stdin");
  if (extra.length > 0) return usageError(io, "brief", `one brief at a time, got also '${extra.join(" ")}'`);
  let result: BriefResult;
  if (file === "-") {
    const text = await readStdin(io.stdin);
    const source = { name: "stdin", defaultId: parsed.values.id ?? "stdin" };
    result = isIssueBody(text) ? parseIssueBody(text, source) : parseBriefYaml(text, source);
  } else {
    // Through the reader that never blocks: a FIFO or /dev/zero named as the brief is refused.
    // Four times the bound, so an over-long brief is still measured exactly by the parser below.
    const read = readBoundedFile(resolve(io.cwd, file), { most: 4 * MAX_BRIEF_BYTES, symlinks: "follow" });
    if (!read.ok && read.code === "too-long") {
      io.stderr.write(`${terminalText(file)}: (file): the brief is ${read.problem}\n`);
      return 1;
    }
    if (!read.ok) {
      io.stderr.write(`bosun brief: cannot read ${terminalText(file)}: ${read.problem}\n`);
      return EXIT_USAGE;
    }
    result = parseBriefYaml(read.text, { name: file, defaultId: parsed.values.id ?? basename(file).replace(/\.ya?ml$/, "") });
  }
  if (!result.ok) {
    io.stderr.write(`${terminalText(formatProblems(result.problems))}\n`);
    return 1;
  }
  io.stdout.write(`${JSON.stringify({ brief: result.brief, hash: briefHash(result.brief) }, null, 2)}\n`);
  return 0;
}

const brief: CliCommand = { summary: "validate a brief and print it normalized", usage, run };
export default brief;
