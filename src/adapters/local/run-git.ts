import { spawn } from "node:child_process";

/** What a git invocation came to: its stdout, or why it failed (git's own first stderr line). */
export type GitResult = { readonly ok: true; readonly stdout: string } | { readonly ok: false; readonly message: string; readonly tooLarge?: true };

/**
 * Runs `git` with arguments (never through a shell) in `cwd`. Configuration that would change
 * what a diff prints (colour, external diff, relative paths) is pinned off by the callers' flags.
 */
export function runGit(args: readonly string[], cwd: string, maxBytes = Number.POSITIVE_INFINITY): Promise<GitResult> {
  return new Promise((resolve) => {
    let bytes = 0;
    let tooLarge = false;
    const child = spawn("git", [...args], { cwd, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, GIT_TERMINAL_PROMPT: "0", LC_ALL: "C" } });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (b: Buffer) => {
      if (tooLarge) return;
      bytes += b.length;
      // Past the bound nothing more is kept and git is stopped: the caller decides what a cut output means.
      if (bytes > maxBytes) {
        tooLarge = true;
        out.length = 0;
        child.kill("SIGKILL");
        return;
      }
      out.push(b);
    });
    child.stderr.on("data", (b: Buffer) => err.push(b));
    child.on("error", (e) => resolve({ ok: false, message: `could not run git: ${e.message}` }));
    child.on("close", (code) => {
      if (tooLarge) resolve({ ok: false, message: `git ${args[0] ?? ""} printed more than ${maxBytes} bytes`, tooLarge: true });
      else if (code === 0) resolve({ ok: true, stdout: Buffer.concat(out).toString("utf8") });
      else resolve({ ok: false, message: Buffer.concat(err).toString("utf8").trim().split("\n")[0] || `git ${args[0] ?? ""} exited ${String(code)}` });
    });
  });
}
