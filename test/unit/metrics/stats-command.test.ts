import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable, Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../../src/cli/main.js";
import { HAND_MADE_JOURNAL } from "./hand-made-journal.js";

let dir = "";
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "bosun-stats-"));
  await writeFile(join(dir, "journal.jsonl"), `${HAND_MADE_JOURNAL.join("\n")}\n`);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function bosun(...args: string[]) {
  let stdout = "";
  let stderr = "";
  const sink = (write: (s: string) => void) =>
    new Writable({
      write(chunk: Buffer, _enc, done) {
        write(chunk.toString("utf8"));
        done();
      },
    });
  const code = await main(args, {
    stdout: sink((s) => (stdout += s)),
    stderr: sink((s) => (stderr += s)),
    stdin: Readable.from([]),
    env: {},
    cwd: dir,
  });
  return { code, stdout, stderr };
}

describe("bosun stats", () => {
  it("prints the November metrics as JSON, with the skipped lines named", async () => {
    const { code, stdout, stderr } = await bosun("stats", "--journal", "journal.jsonl", "--since", "2026-11-01", "--until", "2026-11-30", "--format", "json");
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as { events: number; cost: { accepted_tasks: number; per_accepted_task: { tokens: number } }; problems: { line: number }[] };
    expect(report.events).toBe(21);
    expect(report.cost.accepted_tasks).toBe(2);
    expect(report.cost.per_accepted_task.tokens).toBe(6_600);
    expect(report.problems.map((p) => p.line)).toEqual([21, 22, 23]);
    expect(stderr.split("\n").filter(Boolean)).toEqual([
      "journal.jsonl:21: skipped: not JSON",
      "journal.jsonl:22: skipped: event: must be one of CLAIM, DENY, DISPATCH, HOLD, LAND, RELEASE, RECLAIM, IDLE, GATE",
      "journal.jsonl:23: skipped: v: must be 1 (the only journal version this reads)",
    ]);
  });

  it("prints a table by default", async () => {
    const { code, stdout } = await bosun("stats", "--journal", "journal.jsonl", "--since", "2026-11-01", "--until", "2026-11-30");
    expect(code).toBe(0);
    expect(stdout).toContain("Stop reasons (11 runs; 1 landed without a stop, not counted)");
    expect(stdout).toMatch(/^ {2}done +6 +54\.5%$/m); // 6 ÷ 11
    expect(stdout).toMatch(/^ {2}feature +3 +1 +2 +0 +66\.7%$/m); // 2 ÷ 3
    expect(stdout).toMatch(/^ {2}tokens +13,200 +6,600 +3$/m);
  });

  it.each([
    [["--since", "last week"]],
    [["--format", "html"]],
    [["--since", "2026-11-30", "--until", "2026-11-01"]],
    [["--bogus"]],
  ])("is a usage error for %j", async (args) => {
    expect((await bosun("stats", "--journal", "journal.jsonl", ...args)).code).toBe(2);
  });

  it("exits 1 when the journal cannot be read", async () => {
    const { code, stderr } = await bosun("stats", "--journal", "missing.jsonl");
    expect(code).toBe(1);
    expect(stderr).toContain("ENOENT");
  });
});
