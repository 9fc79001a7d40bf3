import { execFile } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);

/** The checked-out commit, or undefined outside a git repository. */
export async function gitHead(cwd: string): Promise<string | undefined> {
  try {
    return (await run("git", ["rev-parse", "HEAD"], { cwd })).stdout.trim();
  } catch {
    return undefined;
  }
}

/** Everything the agent changed since the checked-out commit (its own commits, staged, untracked), as one binary patch. */
export async function changesSince(cwd: string, base: string): Promise<string> {
  await run("git", ["add", "-A"], { cwd });
  return (await run("git", ["diff", "--cached", "--binary", base], { cwd, maxBuffer: 64 * 1024 * 1024 })).stdout;
}
