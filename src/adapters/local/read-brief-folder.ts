import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import type { BriefProblem } from "../../core/brief/brief.js";
import type { QueuedBrief } from "../../core/brief/work-items-from-briefs.js";
import { parseBriefYaml } from "../../core/brief/parse-brief.js";

export interface BriefFolder {
  readonly briefs: readonly QueuedBrief[];
  /** Every problem of every invalid brief, by file and field. */
  readonly problems: readonly BriefProblem[];
  /** Ids (or file names) of the briefs that are invalid: never claimed, and they fail the drain. */
  readonly invalid: readonly string[];
}

const BRIEF_FILE = /^[^_.].*\.ya?ml$/;

/**
 * Reads every `*.yml`/`*.yaml` brief in a folder (files starting with `_` or `.` are templates
 * and skipped). A brief's queue time is its file's modification time. Two briefs with one id or
 * one claim key are both invalid: running either would be a guess.
 */
export async function readBriefFolder(dir: string): Promise<BriefFolder> {
  const names = (await readdir(dir)).filter((n) => BRIEF_FILE.test(n)).sort();
  const briefs: QueuedBrief[] = [];
  const paths = new Map<QueuedBrief, string>();
  const problems: BriefProblem[] = [];
  const invalid: string[] = [];
  for (const name of names) {
    const path = join(dir, name);
    const [text, st] = await Promise.all([readFile(path, "utf8"), stat(path)]);
    const result = parseBriefYaml(text, { name: path, defaultId: name.replace(/\.ya?ml$/, "") });
    if (result.ok) {
      const queued = { brief: result.brief, queuedAt: Math.floor(st.mtimeMs) };
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
  const bad = new Set(briefs.filter((q) => problems.some((p) => p.source === paths.get(q))).map((q) => q.brief.id));
  return { briefs: briefs.filter((q) => !bad.has(q.brief.id)), problems, invalid: [...invalid, ...bad] };
}
