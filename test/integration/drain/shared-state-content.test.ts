/**
 * Two drains on one state folder, each with its own briefs folder, and one brief id in both with
 * different content: the claim records carry the brief's hash, so the second brief is never taken
 * as landed on the first one's outcome.
 */
import { readFileSync } from "node:fs";
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runBosun } from "../../support/run-bosun.js";

const brief = (goal: string): string => `goal: ${goal}\nconstraints: {paths: [src/**]}\nacceptance: {command: "true"}\nsize_cap: 10\n`;

describe("one state folder, two briefs folders, one id", () => {
  // Seen failing before the fix: the second drain said "0 ran … every brief landed ok" and exited 0.
  it("the second brief is not taken as landed on the first one's outcome: the drain fails, saying why", async () => {
    const dir = await mkdtemp(join(tmpdir(), "bosun-shared-"));
    const state = join(dir, "state");
    const log = join(dir, "ran.log");
    for (const [name, goal] of [["a", "Do the first thing."], ["b", "Do a quite different thing."]] as const) {
      await mkdir(join(dir, name));
      await writeFile(join(dir, name, "same.yml"), brief(goal));
    }
    const worker = `echo "$BOSUN_ITEM $(grep -o '"goal": "[^"]*"' "$BOSUN_BRIEF")" >> ${log}`;
    const first = await runBosun(["drain", "--briefs", "a", "--state", state, "--run", worker], { cwd: dir });
    expect(first.code, first.stderr).toBe(0);
    const second = await runBosun(["drain", "--briefs", "b", "--state", state, "--run", worker], { cwd: dir });
    expect(second.code, second.stdout).toBe(1);
    expect(second.stdout).toMatch(/^same: not run: settled for another brief: another brief with this claim key settled in /m);
    expect(second.stdout).toMatch(/1 needs a human/);
    expect(second.stdout).not.toMatch(/every brief landed ok/);
    // What ran, from the worker's own log: only the first brief.
    expect(readFileSync(log, "utf8").trim().split("\n")).toEqual(['same "goal": "Do the first thing."']);
    // The same content again is the same item: already done, exit 0.
    const again = await runBosun(["drain", "--briefs", "a", "--state", state, "--run", worker], { cwd: dir });
    expect(again.code, again.stdout).toBe(0);
  });
});
