import { readFileSync } from "node:fs";
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { alive, readPid, waitFor } from "../../support/process-waits.js";
import { runShell } from "../../../src/adapters/local/run-shell.js";
import { startBosun } from "../../support/run-bosun.js";

// Workers start through a long-lived spawner process (src/adapters/local/worker-spawner.ts), so
// the drain's own memory never makes a fork slow. What that must not cost: a worker outliving the
// holder of its claim, however the holder or the spawner died.

/** The parent of a process, from /proc (field 4 of its stat line, after the command in parentheses). */
const parentOf = (pid: number): number => Number(readFileSync(`/proc/${pid}/stat`, "utf8").replace(/^.*\) /s, "").split(" ")[1]);

describe("the worker spawner", () => {
  it("a SIGKILL to the drain's whole process group takes its workers with it", async () => {
    const dir = await mkdtemp(join(tmpdir(), "bosun-spawner-"));
    await mkdir(join(dir, "briefs"));
    await writeFile(join(dir, "briefs", "long.yml"), `goal: Sleep.\nconstraints: {paths: [src/**]}\nacceptance: {command: "true"}\nsize_cap: 10\n`);
    const pidFile = join(dir, "worker.pid");
    const drain = startBosun(["drain", "--briefs", join(dir, "briefs"), "--state", join(dir, "state"), "--run", `echo $$ > ${pidFile}; sleep 30`], { cwd: dir, detached: true });
    await waitFor(() => Number.isFinite(readPid(pidFile)));
    const worker = readPid(pidFile);
    // As a terminal's hang-up or a CI runner's cancel does: every process of the drain's group at once.
    process.kill(-(drain.child.pid as number), "SIGKILL");
    await drain.done;
    await waitFor(() => !alive(worker));
    expect(alive(worker)).toBe(false);
  });

  it("when the spawner itself is killed, its workers die and their runs end with a reason, not a hang", async () => {
    const dir = await mkdtemp(join(tmpdir(), "bosun-spawner-"));
    const pidFile = join(dir, "worker.pid");
    const run = runShell({ command: `echo $$ > ${pidFile}; exec sleep 30`, cwd: dir, env: { PATH: process.env.PATH }, timeoutMs: 20_000, dieWithParent: true });
    await waitFor(() => Number.isFinite(readPid(pidFile)));
    const worker = readPid(pidFile);
    const spawner = parentOf(worker);
    expect(spawner).not.toBe(process.pid);
    process.kill(spawner, "SIGKILL");
    const ended = await run;
    expect(ended.error).toMatch(/the worker spawner was ended by SIGKILL; the worker was stopped with it/);
    await waitFor(() => !alive(worker));
    expect(alive(worker)).toBe(false);
    // The next worker gets a new spawner.
    const next = await runShell({ command: "echo again", cwd: dir, env: { PATH: process.env.PATH }, dieWithParent: true });
    expect(next).toMatchObject({ exit: 0, tail: ["again"] });
  });

  it("streams output whole across chunk boundaries, multi-byte characters included", async () => {
    const chunks: string[] = [];
    // 40,000 two-byte characters: many pipe reads, under the 128 KiB limit on one argument.
    const text = "é".repeat(40_000);
    const run = await runShell({ command: `printf '%s' '${text}'`, cwd: tmpdir(), env: { PATH: process.env.PATH }, dieWithParent: true, onOutput: (c) => chunks.push(c) });
    expect(run.exit).toBe(0);
    expect(chunks.join("")).toBe(text);
  });
});
