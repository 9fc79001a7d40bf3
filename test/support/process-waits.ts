import { readFileSync } from "node:fs";

/**
 * Polls `check` every 25 ms until it holds; throws after `ms`. The default is long on purpose:
 * it bounds a hang, it does not time anything, and a busy machine can take seconds to start a process.
 */
export async function waitFor(check: () => boolean, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Running, not a zombie: an orphan's zombie waits for init to reap it, which may take a while. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z /s.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

/** A file's trimmed text, or "" while it does not exist yet. */
export function readText(path: string): string {
  try {
    return readFileSync(path, "utf8").trim();
  } catch {
    return "";
  }
}

/** The pid a worker wrote to a file, or NaN until it has. */
export const readPid = (path: string): number => Number(readText(path) || NaN);
