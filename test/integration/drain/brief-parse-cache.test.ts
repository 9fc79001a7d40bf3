import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type BriefParseCache, readBriefFolder } from "../../../src/adapters/local/read-brief-folder.js";

const brief = (goal: string) => `goal: ${goal}\nconstraints: {paths: [src/**]}\nacceptance: {command: "true"}\nsize_cap: 10\n`;

// A drain reads its folder again before it calls itself idle; an unchanged file is not parsed
// again. What must hold: a file whose text changed is read as it is now, never as it was.
describe("reading a briefs folder again with the parse cache", () => {
  it("reuses an unchanged brief, and reads an edited, broken or removed one as it is now", async () => {
    const dir = await mkdtemp(join(tmpdir(), "bosun-parse-cache-"));
    await mkdir(join(dir, "briefs"));
    const briefs = join(dir, "briefs");
    await writeFile(join(briefs, "a.yml"), brief("First goal."));
    await writeFile(join(briefs, "b.yml"), brief("Stays."));
    const cache: BriefParseCache = new Map();
    const first = await readBriefFolder(briefs, cache);
    expect(first.briefs.map((q) => q.brief.goal)).toEqual(["First goal.", "Stays."]);

    await writeFile(join(briefs, "a.yml"), brief("Second goal."));
    const second = await readBriefFolder(briefs, cache);
    expect(second.briefs.map((q) => q.brief.goal)).toEqual(["Second goal.", "Stays."]);
    // The unchanged one is the very brief parsed before.
    expect(second.briefs[1]?.brief).toBe(first.briefs[1]?.brief);

    await writeFile(join(briefs, "a.yml"), "goal: [unclosed\n");
    const broken = await readBriefFolder(briefs, cache);
    expect(broken.invalid).toEqual(["a"]);
    expect(broken.briefs.map((q) => q.brief.id)).toEqual(["b"]);

    await rm(join(briefs, "a.yml"));
    const removed = await readBriefFolder(briefs, cache);
    expect(removed.invalid).toEqual([]);
    expect([...cache.keys()]).toEqual([join(briefs, "b.yml")]);
  });
});
