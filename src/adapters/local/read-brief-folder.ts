import { readdir } from "node:fs/promises";
import { join } from "node:path";
import type { BriefProblem, BriefResult } from "../../core/brief/brief.js";
import type { QueuedBrief } from "../../core/brief/work-items-from-briefs.js";
import { MAX_BRIEF_BYTES, parseBriefYaml } from "../../core/brief/parse-brief.js";
import { readBoundedFile } from "./read-bounded-file.js";

export interface BriefFolder {
  readonly briefs: readonly QueuedBrief[];
  /** Every problem of every invalid brief, by file and field. */
  readonly problems: readonly BriefProblem[];
  /** Ids (or file names) of the briefs that are invalid or unreadable: never claimed, and they fail the drain. */
  readonly invalid: readonly string[];
  /** The file each valid brief was read from, by id. */
  readonly paths: ReadonlyMap<string, string>;
}

/** The folder itself could not be listed (vanished, not a folder, no permission): the drain cannot go on. */
export class BriefFolderError extends Error {
  constructor(
    readonly dir: string,
    readonly code: string,
  ) {
    super(`the briefs folder ${dir} cannot be read (${code}${code === "ENOENT" ? ": it is gone" : ""})`);
    this.name = "BriefFolderError";
  }
}

const BRIEF_FILE = /^[^_.].*\.ya?ml$/;

/**
 * What a folder read parsed, by file: read again, a file whose text is the same is not parsed
 * again (the parse is a function of the text and the path alone). A drain reads its folder at the
 * start and again before it calls itself idle, and parsing 2,000 briefs took a second of CPU.
 */
export type BriefParseCache = Map<string, { readonly text: string; readonly result: BriefResult }>;

/** What an errno code means to someone fixing their briefs folder. */
const WHY: Readonly<Record<string, string>> = {
  ELOOP: "a symbolic link loop",
  EISDIR: "a folder, not a file",
  ENOENT: "it vanished, or is a broken symbolic link",
  EACCES: "permission denied",
  EPERM: "permission denied",
};

/**
 * Reads every `*.yml`/`*.yaml` brief in a folder (files starting with `_` or `.` are templates
 * and skipped). A brief's queue time is its file's modification time. Two briefs with one id or
 * one claim key are both invalid: running either would be a guess. An entry that cannot be read
 * (a symlink loop, a folder named `x.yml`, a FIFO, a vanished file) is reported as a problem and
 * skipped; the other briefs still run. Only a folder that cannot be listed throws
 * (`BriefFolderError`).
 */
export async function readBriefFolder(dir: string, cache?: BriefParseCache): Promise<BriefFolder> {
  let entries: string[];
  try {
    entries = await readdir(dir);
  } catch (err) {
    throw new BriefFolderError(dir, (err as NodeJS.ErrnoException).code ?? String(err));
  }
  const names = entries.filter((n) => BRIEF_FILE.test(n)).sort();
  const briefs: QueuedBrief[] = [];
  const paths = new Map<QueuedBrief, string>();
  const problems: BriefProblem[] = [];
  const invalid: string[] = [];
  const seen: BriefParseCache = new Map();
  for (const name of names) {
    const path = join(dir, name);
    const file = readBriefFile(path);
    if (!file.ok) {
      problems.push({ source: path, field: "(file)", message: file.problem });
      invalid.push(name.replace(/\.ya?ml$/, ""));
      continue;
    }
    const before = cache?.get(path);
    const result = before !== undefined && before.text === file.text ? before.result : parseBriefYaml(file.text, { name: path, defaultId: name.replace(/\.ya?ml$/, "") });
    seen.set(path, { text: file.text, result });
    if (result.ok) {
      const queued = { brief: result.brief, queuedAt: Math.floor(file.mtimeMs) };
      briefs.push(queued);
      paths.set(queued, path);
    } else {
      problems.push(...result.problems);
      invalid.push(name.replace(/\.ya?ml$/, ""));
    }
  }
  const clash = (key: (q: QueuedBrief) => string, what: string): void => {
    const seen = new Map<string, QueuedBrief[]>();
    for (const q of briefs) seen.set(key(q), [...(seen.get(key(q)) ?? []), q]);
    for (const [value, group] of seen) {
      if (group.length < 2) continue;
      for (const q of group) {
        problems.push({ source: paths.get(q) ?? q.brief.id, field: what, message: `${what} '${value}' is used by ${group.length} briefs: ${group.map((g) => g.brief.id).join(", ")}` });
      }
    }
  };
  clash((q) => q.brief.id, "id");
  clash((q) => q.brief.claim_key, "claim_key");
  // Only what this read found is kept: a file removed since is forgotten.
  if (cache !== undefined) {
    cache.clear();
    for (const [path, entry] of seen) cache.set(path, entry);
  }
  const bad = new Set(briefs.filter((q) => problems.some((p) => p.source === paths.get(q))).map((q) => q.brief.id));
  const valid = briefs.filter((q) => !bad.has(q.brief.id));
  return { briefs: valid, problems, invalid: [...invalid, ...bad], paths: new Map(valid.map((q) => [q.brief.id, paths.get(q) ?? ""])) };
}

/** Reads one brief file through the reader that never blocks (a FIFO named `x.yml` waited for a writer forever). */
function readBriefFile(path: string): { ok: true; text: string; mtimeMs: number } | { ok: false; problem: string } {
  const read = readBoundedFile(path, { most: MAX_BRIEF_BYTES, symlinks: "follow" });
  if (read.ok) return read;
  if (read.code === "special") return { ok: false, problem: `cannot read: ${read.problem}` };
  if (read.code === "too-long") return { ok: false, problem: `the brief is ${read.problem}` };
  return { ok: false, problem: unreadable(read.code) };
}

function unreadable(code: string): string {
  return `cannot read: ${code}${WHY[code] === undefined ? "" : ` (${WHY[code]})`}`;
}
