import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

const CLI = fileURLToPath(new URL("./bosun-cli.ts", import.meta.url));
// tsx's loader by absolute URL, so the child runs from source whatever its working folder.
const TSX = new URL("../../node_modules/tsx/dist/loader.mjs", import.meta.url).href;

export interface BosunRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Starts `bosun ARGS` from source as a child process; `done` resolves when it exits. */
export function startBosun(args: readonly string[], options: { cwd: string; env?: Record<string, string>; input?: string; detached?: boolean }): { child: ChildProcess; done: Promise<BosunRun> } {
  const child = spawn(process.execPath, ["--import", TSX, CLI, ...args], {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ["pipe", "pipe", "pipe"],
    // A process group of its own, so a test can signal the whole group as a terminal or CI would.
    detached: options.detached === true,
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (b: Buffer) => (stdout += b.toString()));
  child.stderr.on("data", (b: Buffer) => (stderr += b.toString()));
  if (options.input !== undefined) child.stdin.end(options.input);
  else child.stdin.end();
  const done = new Promise<BosunRun>((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
  return { child, done };
}

/** Runs `bosun ARGS` to completion. */
export function runBosun(args: readonly string[], options: { cwd: string; env?: Record<string, string>; input?: string }): Promise<BosunRun> {
  return startBosun(args, options).done;
}
