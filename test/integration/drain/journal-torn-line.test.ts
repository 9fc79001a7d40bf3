/** A journal whose last line was torn (a crash or a full disk mid-append) loses no later event. */
import { readFileSync } from "node:fs";
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FileJournal } from "../../../src/adapters/local/file-journal.js";
import { parseJournalLine } from "../../../src/core/metrics/journal-record.js";
import { runBosun } from "../../support/run-bosun.js";

const TORN = '{"v":1,"t":"2026-11-30T15:00:00.000Z","event":"LAND","item":"old","ok":tr';

function lines(path: string): string[] {
  return readFileSync(path, "utf8").split("\n").filter((l) => l !== "");
}

describe("a torn last journal line", () => {
  // Seen failing before the fix: the next drain's first event was appended to the torn line, and both were unreadable.
  it("the next drain's events are each on a line of their own, the first one too", async () => {
    const dir = await mkdtemp(join(tmpdir(), "bosun-torn-"));
    await mkdir(join(dir, "briefs"));
    await mkdir(join(dir, "state"));
    await writeFile(join(dir, "briefs", "one.yml"), 'goal: Do one thing.\nconstraints: {paths: [src/**]}\nacceptance: {command: "true"}\nsize_cap: 10\n');
    await writeFile(join(dir, "state", "journal.jsonl"), `${TORN}`);
    const run = await runBosun(["drain", "--briefs", "briefs", "--state", "state", "--run", "true"], { cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    const all = lines(join(dir, "state", "journal.jsonl"));
    expect(all[0]).toBe(TORN);
    const events = all.slice(1).map((l, i) => parseJournalLine(l, i + 2));
    expect(events.every((e) => e !== undefined && "record" in e), JSON.stringify(events)).toBe(true);
    expect(events.map((e) => (e !== undefined && "record" in e ? e.record.event : "?"))).toEqual(["CLAIM", "DISPATCH", "LAND", "RELEASE", "IDLE"]);
  });

  it("batched: every event is written by flush, and a torn line before them is ended first", async () => {
    const dir = await mkdtemp(join(tmpdir(), "bosun-torn-"));
    const path = join(dir, "journal.jsonl");
    await writeFile(path, TORN);
    const journal = new FileJournal(path, [], undefined, { batchMs: 60_000 });
    for (const item of ["a", "b", "c"]) journal.append({ v: 1, t: "2026-11-30T15:00:00.000Z", event: "RELEASE", item, epoch: 1 });
    // Held, not yet written: the batch's time has not come.
    expect(lines(path)).toEqual([TORN]);
    journal.flush();
    expect(lines(path).slice(1).map((l) => (JSON.parse(l) as { item: string }).item)).toEqual(["a", "b", "c"]);
  });
});
