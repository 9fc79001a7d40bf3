import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runGit } from "./run-git.js";

/** Where the head's code is checked out for the acceptance command, and how to clean up after. */
export type HeadCheckout =
  | { readonly ok: true; readonly dir: string; readonly note: string; dispose(): Promise<void> }
  | { readonly ok: false; readonly message: string };

/**
 * The folder to run the acceptance command in: the repository's top level when `head` is the
 * commit checked out there, otherwise a temporary detached worktree of `head` (removed by dispose).
 */
export async function headCheckout(cwd: string, head: string): Promise<HeadCheckout> {
  const [top, headSha, current] = await Promise.all([
    runGit(["rev-parse", "--show-toplevel"], cwd),
    runGit(["rev-parse", "--verify", "--quiet", `${head}^{commit}`], cwd),
    runGit(["rev-parse", "--verify", "--quiet", "HEAD^{commit}"], cwd),
  ]);
  if (!top.ok) return top;
  if (!headSha.ok) return { ok: false, message: `unknown head '${head}'` };
  const sha = headSha.stdout.trim();
  if (current.ok && current.stdout.trim() === sha) {
    return { ok: true, dir: top.stdout.trim(), note: "in the working tree", dispose: async () => {} };
  }
  const dir = await mkdtemp(join(tmpdir(), "bosun-gate-"));
  const added = await runGit(["worktree", "add", "--detach", "--quiet", dir, sha], cwd);
  if (!added.ok) {
    await rm(dir, { recursive: true, force: true });
    return added;
  }
  return {
    ok: true,
    dir,
    note: `in a temporary worktree of ${sha.slice(0, 12)}`,
    dispose: async () => {
      await runGit(["worktree", "remove", "--force", dir], cwd);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
