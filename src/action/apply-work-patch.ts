import { stat } from "node:fs/promises";
import { runGit } from "../adapters/local/run-git.js";
import { headCommit, workingTreeChanges } from "../adapters/local/working-tree-changes.js";
import type { FileChange } from "../adapters/local/working-tree-changes.js";

/** A patch larger than this is refused unread: the API commits text files, not bulk data. */
export const MAX_WORK_PATCH_BYTES = 5 * 1024 * 1024;

/**
 * Applies the agent job's patch to the land job's own checkout (the commit the run was
 * dispatched at, the one the agent started from) and reads back the files it changed, for
 * `publishItemPull`. The patch is the agent's to write, so it is data: `git apply` runs nothing
 * from it and refuses paths outside the tree or inside `.git`, writes through a symbolic link,
 * and any hunk that does not fit the base; `workingTreeChanges` then refuses binary files and
 * symbolic links. An empty patch is no change, not an error.
 */
export async function applyWorkPatch(workdir: string, patchPath: string): Promise<{ readonly base: string; readonly changes: readonly FileChange[] } | { readonly problem: string }> {
  let size: number;
  try {
    size = (await stat(patchPath)).size;
  } catch (err) {
    return { problem: `the agent's patch '${patchPath}' cannot be read: ${err instanceof Error ? err.message : String(err)}` };
  }
  if (size > MAX_WORK_PATCH_BYTES) return { problem: `the agent's patch '${patchPath}' is larger than ${MAX_WORK_PATCH_BYTES} bytes` };
  let base: string;
  try {
    base = await headCommit(workdir);
  } catch (err) {
    return { problem: `open-pull-request needs the repository checked out in GITHUB_WORKSPACE: ${err instanceof Error ? err.message : String(err)}` };
  }
  if (size === 0) return { base, changes: [] };
  const applied = await runGit(["apply", "--index", "--whitespace=nowarn", "--", patchPath], workdir);
  if (!applied.ok) return { problem: `the agent's patch does not apply to ${base.slice(0, 12)}: ${applied.message}` };
  try {
    return { base, changes: await workingTreeChanges(workdir, base) };
  } catch (err) {
    return { problem: err instanceof Error ? err.message : String(err) };
  }
}
