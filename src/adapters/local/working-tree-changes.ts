import { lstat, readFile } from "node:fs/promises";
import { join } from "node:path";
import { runGit } from "./run-git.js";

/** One file the agent changed since `since`: its new text and mode, or `null` when it was deleted. */
export interface FileChange {
  readonly path: string;
  readonly content: string | null;
  readonly mode: "100644" | "100755";
}

/**
 * Everything in the working tree that differs from commit `since` — edits, new files, deletions,
 * whether or not the agent committed them — as files to publish through the API. Stages the
 * whole tree to see untracked files (the workspace is the run's own checkout). Refuses what the
 * API cannot carry as text: binary files, symbolic links.
 */
export async function workingTreeChanges(cwd: string, since: string): Promise<FileChange[]> {
  const staged = await runGit(["add", "-A"], cwd);
  if (!staged.ok) throw new Error(`could not read the agent's changes: git add: ${staged.message}`);
  const diff = await runGit(["diff", "--cached", "--no-renames", "--name-status", "-z", since], cwd);
  if (!diff.ok) throw new Error(`could not read the agent's changes: git diff: ${diff.message}`);
  const fields = diff.stdout.split("\0").filter((f) => f !== "");
  const changes: FileChange[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const status = fields[i] ?? "";
    const path = fields[i + 1] ?? "";
    if (status.startsWith("D")) {
      changes.push({ path, content: null, mode: "100644" });
      continue;
    }
    const file = join(cwd, path);
    const info = await lstat(file);
    if (info.isSymbolicLink()) throw new Error(`${path}: a symbolic link cannot be published through the API`);
    const bytes = await readFile(file);
    if (bytes.includes(0)) throw new Error(`${path}: a binary file cannot be published through the API`);
    changes.push({ path, content: bytes.toString("utf8"), mode: (info.mode & 0o111) !== 0 ? "100755" : "100644" });
  }
  return changes;
}

/** The commit the working tree is checked out at. */
export async function headCommit(cwd: string): Promise<string> {
  const head = await runGit(["rev-parse", "HEAD"], cwd);
  if (!head.ok) throw new Error(`${cwd} is not a git checkout: ${head.message}`);
  return head.stdout.trim();
}
