/** runShell refuses a timeout a timer cannot wait, and judges a command on its exit. */
import { existsSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runShell } from "../../../src/adapters/local/run-shell.js";

describe("runShell", () => {
  it("a timeout past 2^31-1 ms is refused before anything runs (setTimeout would fire at once)", async () => {
    const dir = await mkdtemp(join(tmpdir(), "bosun-shell-"));
    const marker = join(dir, "ran");
    const run = await runShell({ command: `touch ${marker}`, cwd: dir, env: process.env, timeoutMs: 25 * 86_400_000 });
    expect(run.error).toMatch(/timeout 2160000000 ms is not between 0 and 2147483647 ms/);
    expect(run.killedFor).toBeUndefined();
    expect(existsSync(marker)).toBe(false);
  });

  it("exit 0 with a background child still holding stdout is exit 0, not a timeout", async () => {
    const run = await runShell({ command: "echo started; sleep 30 & exit 0", cwd: tmpdir(), env: process.env, timeoutMs: 10_000, dieWithParent: true });
    expect(run).toMatchObject({ exit: 0, tail: ["started"] });
    expect(run.killedFor).toBeUndefined();
  });
});
