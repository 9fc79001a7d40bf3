/**
 * Two drains on one state folder, each with its own briefs folder, and one brief id in both with
 * different content: the claim records carry the brief's hash, so the second brief is never taken
 * as landed on the first one's outcome.
 */
import { existsSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runBosun, startBosun } from "../../support/run-bosun.js";

const brief = (goal: string): string => `goal: ${goal}\nconstraints: {paths: [src/**]}\nacceptance: {command: "true"}\nsize_cap: 10\n`;

/** A folder with briefs folders `a` and `b`, each holding `same.yml` with its own goal, a state folder and a worker log. */
async function twoBriefFolders(): Promise<{ dir: string; state: string; log: string }> {
  const dir = await mkdtemp(join(tmpdir(), "bosun-shared-"));
  for (const [name, goal] of [["a", "Do the first thing."], ["b", "Do a quite different thing."]] as const) {
    await mkdir(join(dir, name));
    await writeFile(join(dir, name, "same.yml"), brief(goal));
  }
  return { dir, state: join(dir, "state"), log: join(dir, "ran.log") };
}

describe("one state folder, two briefs folders, one id", () => {
  // Seen failing before the fix: the second drain said "0 ran … every brief landed ok" and exited 0.
  it("the second brief is not taken as landed on the first one's outcome: the drain fails, saying why", async () => {
    const { dir, state, log } = await twoBriefFolders();
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

  // Seen failing before the fix: the first brief waited out a retry, the second (other content,
  // same id) took its next epoch and ran on the first one's attempts; the first, back, was refused.
  it("a brief of this id waiting out a retry keeps another brief of the id out: it is not run on the first one's attempts", async () => {
    const { dir, state, log } = await twoBriefFolders();
    // The first run of anything asks for a retry; later runs succeed.
    const worker = `echo "$BOSUN_ITEM $(grep -o '"goal": "[^"]*"' "$BOSUN_BRIEF")" >> ${log}; if [ -f ${join(dir, "once")} ]; then exit 0; fi; touch ${join(dir, "once")}; echo '{"kind":"failed","failure":"retry","reason":"flaky"}' > "$BOSUN_RESULT"`;
    const first = startBosun(["drain", "--briefs", "a", "--state", state, "--run", worker, "--backoff", "1h"], { cwd: dir });
    // Stop the first drain once its run asked for a retry: the claim ends released, not settled.
    const journal = join(state, "journal.jsonl");
    const landed = (): boolean => existsSync(journal) && readFileSync(journal, "utf8").includes('"LAND"');
    for (let i = 0; i < 1200 && !landed(); i++) await new Promise((r) => setTimeout(r, 100));
    expect(landed(), "the first drain's run landed").toBe(true);
    first.child.kill("SIGTERM");
    await first.done;
    const second = await runBosun(["drain", "--briefs", "b", "--state", state, "--run", worker, "--backoff", "1s"], { cwd: dir });
    expect(second.code, second.stdout).toBe(1);
    expect(second.stdout).toMatch(/^same: not run: claimed for another brief: another brief with this claim key was claimed in .*epoch 1/m);
    // What ran, from the worker's own log: only the first brief, once.
    expect(readFileSync(log, "utf8").trim().split("\n")).toEqual(['same "goal": "Do the first thing."']);
  });
});
