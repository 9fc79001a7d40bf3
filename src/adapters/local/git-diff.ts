import type { ChangedFile, FileStatus, GateDiff } from "../../core/gate/changed-file.js";
import { runGit } from "./run-git.js";

/** A local diff, or why it could not be read (an unknown ref, not a repository). */
export type GitDiffResult = { readonly ok: true; readonly diff: GateDiff } | { readonly ok: false; readonly message: string };

const COMMON = ["--no-color", "--no-ext-diff", "--no-relative", "-M"];

// git's status letters in GitHub's words; T (type change) and anything new read as "changed".
const STATUS: Readonly<Record<string, FileStatus>> = { A: "added", D: "removed", M: "modified", R: "renamed", C: "copied" };

/**
 * The most patch text read for one gate (all files together). A 100 MB text file once made the
 * gate read and split 100 MB of patch; past this bound the files get no patch, which the gate
 * reports as could-not-check ("came without a patch"), as GitHub does for files too large to show.
 */
export const MAX_PATCH_BYTES = 32 * 1024 * 1024;

/**
 * Reads the committed diff `base...head` (from their merge base, as a pull request shows it):
 * names with statuses, per-file counts, patches, and `--shortstat` totals as an independent source.
 */
export async function gitDiff(cwd: string, base: string, head: string, maxPatchBytes = MAX_PATCH_BYTES): Promise<GitDiffResult> {
  const range = `${base}...${head}`;
  const [names, counts, patch, short] = await Promise.all([
    runGit(["diff", ...COMMON, "-z", "--name-status", range, "--"], cwd),
    runGit(["diff", ...COMMON, "-z", "--numstat", range, "--"], cwd),
    runGit(["diff", ...COMMON, "--patch", range, "--"], cwd, maxPatchBytes),
    runGit(["diff", ...COMMON, "--shortstat", range, "--"], cwd),
  ]);
  if (!names.ok) return names;
  if (!counts.ok) return counts;
  if (!patch.ok && patch.tooLarge !== true) return patch;
  if (!short.ok) return short;
  const entries = parseNameStatus(names.stdout);
  const numbers = parseNumstat(counts.stdout);
  const chunks = patch.ok ? splitPatch(patch.stdout) : [];
  if (numbers.length !== entries.length) return { ok: false, message: `git listed ${entries.length} names but ${numbers.length} counts` };
  const files: ChangedFile[] = entries.map((entry, i) => {
    const n = numbers[i] ?? { additions: 0, deletions: 0, binary: false };
    // Same options, same order: the i-th patch chunk is the i-th file. Locally nothing is truncated,
    // so a chunk without hunks (mode change, empty file) is an empty patch, not a missing one.
    const chunk = chunks.length === entries.length ? chunks[i] : undefined;
    return {
      path: entry.path,
      ...(entry.previousPath === undefined ? {} : { previousPath: entry.previousPath }),
      status: entry.status,
      additions: n.additions,
      deletions: n.deletions,
      ...(chunk === undefined || n.binary ? {} : { patch: chunk }),
      ...(n.binary ? { binary: true } : {}),
    };
  });
  return { ok: true, diff: { files, totals: parseShortstat(short.stdout) } };
}

interface NameEntry {
  readonly status: FileStatus;
  readonly path: string;
  readonly previousPath?: string;
}

/** `-z --name-status`: `M\0path\0`, and for renames and copies `R093\0old\0new\0`. */
function parseNameStatus(text: string): NameEntry[] {
  const parts = text.split("\0");
  const out: NameEntry[] = [];
  for (let i = 0; i + 1 < parts.length; ) {
    const code = parts[i] ?? "";
    const letter = code.charAt(0);
    const status = STATUS[letter] ?? "changed";
    if (letter === "R" || letter === "C") {
      out.push({ status, previousPath: parts[i + 1] ?? "", path: parts[i + 2] ?? "" });
      i += 3;
    } else {
      out.push({ status, path: parts[i + 1] ?? "" });
      i += 2;
    }
  }
  return out;
}

/** `-z --numstat`: `a\td\tpath\0`, renames `a\td\t\0old\0new\0`, binary files `-\t-`. */
function parseNumstat(text: string): { additions: number; deletions: number; binary: boolean }[] {
  const parts = text.split("\0");
  const out: { additions: number; deletions: number; binary: boolean }[] = [];
  for (let i = 0; i < parts.length; i++) {
    const record = parts[i] ?? "";
    const match = /^(\d+|-)\t(\d+|-)\t(.*)$/s.exec(record);
    if (match === null) continue;
    const binary = match[1] === "-";
    out.push({ additions: binary ? 0 : Number(match[1]), deletions: binary ? 0 : Number(match[2]), binary });
    if (match[3] === "") i += 2; // a rename: its two names follow as separate fields
  }
  return out;
}

/** Splits `--patch` output at each `diff --git` header and keeps the hunks, as GitHub's `patch` field has them. */
function splitPatch(text: string): string[] {
  if (text.length === 0) return [];
  return text.split(/^(?=diff --git )/m).map((chunk) => {
    const at = chunk.search(/^@@ /m);
    return at < 0 ? "" : chunk.slice(at).replace(/\n$/, "");
  });
}

/** ` 3 files changed, 10 insertions(+), 2 deletions(-)`; an empty diff prints nothing. */
function parseShortstat(text: string): GateDiff["totals"] {
  const num = (re: RegExp) => Number(re.exec(text)?.[1] ?? 0);
  return { changed_files: num(/(\d+) files? changed/), additions: num(/(\d+) insertions?\(\+\)/), deletions: num(/(\d+) deletions?\(-\)/) };
}
