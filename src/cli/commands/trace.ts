import { writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { readGithubTrace } from "../../adapters/github/github-trace-source.js";
import type { CliCommand, CliIo } from "../cli-io.js";
import { argsErrorMessage, usageError } from "../usage-error.js";
import { progressBar } from "../progress-bar.js";

const usage = `Usage: bosun trace github --repo OWNER/REPO [--base-url URL] [--out FILE] [--progress]

Reads a repository's issue history into a trace that \`bosun replay\` reads: one JSON line per
issue that ever entered the queue — arrival when it was labelled bosun:ready or bosun:queued,
claim at bosun:claimed, landing at bosun:done or close; band from P0..P4, pool from pool/<name>,
blockers from a brief's blocked_by list. The lines have the shape of beads' issues.jsonl (plus
claimed_at, pool, due), so claimed -> closed becomes an observed duration.

  --repo OWNER/REPO  the repository
  --base-url URL     the API root (default https://api.github.com; GitHub Enterprise: .../api/v3)
  --out FILE         write the trace here (default stdout)
  --progress         show a progress bar even when stderr is not a terminal

GITHUB_TOKEN from the environment authenticates (optional for public repositories).
Exit: 0 · 1 GitHub answered with an error · 2 usage error`;

const fail = (io: CliIo, message: string): number => {
  return usageError(io, "trace", message);
};

async function run(args: readonly string[], io: CliIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      options: { repo: { type: "string" }, "base-url": { type: "string" }, out: { type: "string" }, progress: { type: "boolean" } },
      allowPositionals: true,
      strict: true,
    });
  } catch (err) {
    return fail(io, argsErrorMessage(err));
  }
  const [source, ...extra] = parsed.positionals;
  if (source !== "github" || extra.length > 0) return fail(io, "the one trace source is 'github'");
  const repo = /^([\w.-]+)\/([\w.-]+)$/.exec(parsed.values.repo ?? "");
  if (repo === null) return fail(io, "--repo OWNER/REPO is required");
  const token = io.env["GITHUB_TOKEN"];
  const isTty = (io.stderr as NodeJS.WriteStream).isTTY === true;
  const bar = parsed.values.progress === true || isTty ? progressBar(io.stderr, "issues") : undefined;
  let result;
  try {
    result = await readGithubTrace({
      owner: repo[1] as string,
      repo: repo[2] as string,
      baseUrl: parsed.values["base-url"] ?? "https://api.github.com",
      ...(token === undefined || token === "" ? {} : { token }),
      ...(bar === undefined ? {} : { onProgress: bar.update }),
    });
  } catch (err) {
    bar?.done();
    io.stderr.write(`bosun trace: GitHub answered: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
  bar?.done();
  const text = result.records.map((r) => JSON.stringify(r)).join("\n") + (result.records.length > 0 ? "\n" : "");
  if (parsed.values.out === undefined) io.stdout.write(text);
  else await writeFile(resolve(io.cwd, parsed.values.out), text);
  io.stderr.write(`bosun trace: ${result.records.length} items from ${result.issues} issues (${result.neverQueued} never queued, left out)\n`);
  return 0;
}

const command: CliCommand = { summary: "read a repository's issue history into a replayable trace", usage, run };
export default command;
