/** Three-way merges and diffs of the fake's flat trees, path by path, as a pull request needs them. */
import { executablesOf, filesAt } from "./git-objects.js";
import { mergeBase } from "./git-graph.js";
import type { PullFileRecord, RepoState } from "./state.js";
import { unifiedPatch } from "./unified-patch.js";

export interface TreeFiles {
  files: Map<string, string>;
  executables: Set<string>;
}

/** The files and executable paths at a commit (empty for an unknown one). */
export function treeFilesAt(repo: RepoState, sha: string | undefined): TreeFiles {
  if (sha === undefined) return { files: new Map(), executables: new Set() };
  const tree = repo.commits.get(sha)?.tree ?? "";
  return { files: new Map(filesAt(repo, sha) ?? []), executables: new Set(executablesOf(repo, tree)) };
}

/**
 * `theirs` merged into `ours` from their merge base: a path changed on one side only takes that
 * side; changed on both sides the same way is kept; changed differently is a conflict (the fake
 * does not merge inside a file).
 */
export function mergeTrees(repo: RepoState, ours: string, theirs: string): { ok: true; tree: TreeFiles } | { ok: false; conflicts: string[] } {
  const base = treeFilesAt(repo, mergeBase(repo, ours, theirs));
  const a = treeFilesAt(repo, ours);
  const b = treeFilesAt(repo, theirs);
  const key = (t: TreeFiles, path: string) => (t.files.has(path) ? `${t.executables.has(path) ? "x" : "f"}:${t.files.get(path) ?? ""}` : undefined);
  const out: TreeFiles = { files: new Map(), executables: new Set() };
  const conflicts: string[] = [];
  for (const path of new Set([...base.files.keys(), ...a.files.keys(), ...b.files.keys()])) {
    const [o, t, p] = [key(a, path), key(b, path), key(base, path)];
    const pick = o === t || t === p ? a : o === p ? b : undefined;
    if (pick === undefined) {
      conflicts.push(path);
      continue;
    }
    const content = pick.files.get(path);
    if (content === undefined) continue;
    out.files.set(path, content);
    if (pick.executables.has(path)) out.executables.add(path);
  }
  return conflicts.length > 0 ? { ok: false, conflicts: conflicts.sort() } : { ok: true, tree: out };
}

/** The files a pull request changes, as `pulls/{n}/files` lists them: merge base → head. */
export function diffFiles(repo: RepoState, baseSha: string, headSha: string): PullFileRecord[] {
  const before = treeFilesAt(repo, mergeBase(repo, baseSha, headSha) ?? baseSha).files;
  const after = treeFilesAt(repo, headSha).files;
  const files: PullFileRecord[] = [];
  for (const path of [...new Set([...before.keys(), ...after.keys()])].sort()) {
    const [a, b] = [before.get(path), after.get(path)];
    if (a === b) continue;
    const { patch, additions, deletions } = unifiedPatch(a ?? "", b ?? "");
    files.push({ filename: path, status: a === undefined ? "added" : b === undefined ? "removed" : "modified", additions, deletions, patch });
  }
  return files;
}
