import { spawn } from "node:child_process";
import type { Reviewer, ReviewerReply } from "../../core/review/reviewer-port.js";

/** Settings for a reviewer that is any program reading the prompt on stdin and answering on stdout. */
export interface CommandReviewerOptions {
  readonly command: string;
  readonly cwd?: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly timeoutMs?: number;
}

const MAX_ANSWER = 1024 * 1024;

/** A reviewer that runs `command` through the shell: the prompt (system, blank line, user) on stdin. */
export function createCommandReviewer(options: CommandReviewerOptions): Reviewer {
  return {
    name: "command",
    review: (prompt) =>
      new Promise<ReviewerReply>((resolve) => {
        const child = spawn("/bin/sh", ["-c", options.command], { cwd: options.cwd, env: options.env, stdio: ["pipe", "pipe", "ignore"], detached: true });
        let out = "";
        let settled = false;
        const finish = (reply: ReviewerReply) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve(reply);
        };
        const timer = setTimeout(() => {
          try {
            if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
          } catch {
            // already gone
          }
          finish({ ok: false, reason: `the reviewer command gave no answer within ${Math.round((options.timeoutMs ?? 300_000) / 1000)}s` });
        }, options.timeoutMs ?? 300_000);
        child.stdout.on("data", (b: Buffer) => {
          out += b.toString("utf8");
          if (out.length > MAX_ANSWER) finish({ ok: false, reason: "the reviewer command answered more than 1 MB" });
        });
        child.on("error", (err) => finish({ ok: false, reason: `cannot start the reviewer command: ${err.message}` }));
        child.on("close", (code) => finish(code === 0 ? { ok: true, text: out } : { ok: false, reason: `the reviewer command exited ${String(code)}` }));
        // A command that exits without reading its stdin is not an error of ours.
        child.stdin.on("error", () => {});
        child.stdin.end(`${prompt.system}\n\n${prompt.user}`);
      }),
  };
}
