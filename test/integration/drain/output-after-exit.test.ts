/**
 * Output after a worker exits (src/adapters/local/output-after-exit.ts): whatever the worker wrote is
 * read whole however far behind its reader is; only a process it left behind gets its reading cut,
 * and then the log and the result say where and why, and lost output is never a pass.
 */
import { readFileSync } from "node:fs";
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runShell } from "../../../src/adapters/local/run-shell.js";
import { runBosun } from "../../support/run-bosun.js";

const PATH = { PATH: process.env.PATH };

describe("output after the worker exits", () => {
  for (const dieWithParent of [true, false]) {
    const where = dieWithParent ? "through the spawner" : "forked here";
    it(`${where}: a left-behind process that keeps writing is cut after a bounded amount, and the cut is lost output`, async () => {
      let seen = 0;
      const run = await runShell({ command: "echo mine; (yes left-behind &) ; exit 0", cwd: tmpdir(), env: PATH, timeoutMs: 60_000, dieWithParent, onOutput: (c) => (seen += c.length) });
      expect(run.exit).toBe(0);
      expect(run.killedFor).toBeUndefined();
      expect(run.outputCut).toMatchObject({ lost: true });
      expect(run.outputCut?.reason).toMatch(/left behind wrote more than 1 MB after it/);
      expect(seen).toBeLessThan(8 * 1024 * 1024);
    }, 180_000);

    it(`${where}: a left-behind process that holds the output silently ends the reading, with nothing lost`, async () => {
      const run = await runShell({ command: "echo started; sleep 30 & exit 0", cwd: tmpdir(), env: PATH, timeoutMs: 60_000, dieWithParent });
      expect(run).toMatchObject({ exit: 0, tail: ["started"], outputCut: { lost: false } });
      expect(run.outputCut?.reason).toMatch(/kept its output open without writing/);
    }, 180_000);
  }

  it("the drain: a cut log ends with a line saying where and why, the result ends with it, and the item is not ok", async () => {
    const dir = await mkdtemp(join(tmpdir(), "bosun-cut-"));
    const briefs = join(dir, "briefs");
    await mkdir(briefs);
    await writeFile(join(briefs, "noisy.yml"), 'goal: Do one small thing.\nconstraints: {paths: [src/**]}\nacceptance: {command: "true"}\nsize_cap: 10\n');
    const state = join(dir, "state");
    const run = await runBosun(["drain", "--briefs", briefs, "--state", state, "--quiet", "--run", 'echo "$BOSUN_ITEM done"; (yes left-behind &); exit 0'], { cwd: dir });
    expect(run.code, run.stderr).toBe(1);
    const log = readFileSync(join(state, "runs", "noisy.e1", "output.log"), "utf8");
    expect(log.startsWith("noisy done\n")).toBe(true);
    const last = log.trimEnd().split("\n").at(-1) ?? "";
    expect(last).toMatch(/^\[bosun\] output cut here, after \d+ characters: the worker exited and a process it left behind wrote more than 1 MB/);
    const result = JSON.parse(readFileSync(join(state, "results", "noisy.json"), "utf8")) as { disposition: string; evidence: { lines: string[] }; stop: { kind: string; reason?: string } };
    expect(result.evidence.lines.at(-1)).toBe(last);
    expect(result.disposition).toBe("human");
    expect(result.stop.kind).toBe("failed");
    expect(result.stop.reason).toMatch(/^output cut: /);
  }, 180_000);
});
