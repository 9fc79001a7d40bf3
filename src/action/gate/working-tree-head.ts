import { execFile } from "node:child_process";

/**
 * The commit checked out in a working directory (`git rev-parse HEAD`), or undefined when it is no
 * git checkout: the gate runs the acceptance command only where HEAD is the commit it judges.
 */
export function workingTreeHead(cwd: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    // safe.directory: a container job's checkout may belong to another uid; reading HEAD is harmless.
    execFile("git", ["-c", `safe.directory=${cwd}`, "rev-parse", "--verify", "HEAD"], { cwd, timeout: 10_000, env: { PATH: process.env["PATH"] ?? "/usr/bin:/bin", GIT_CONFIG_NOSYSTEM: "1" } }, (err, stdout) => {
      const sha = stdout.trim().toLowerCase();
      resolve(err === null && /^[0-9a-f]{40}$/.test(sha) ? sha : undefined);
    });
  });
}
