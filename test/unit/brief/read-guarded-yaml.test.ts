/** The parser budget on the parsed tree: aliases, their expansion, collection keys. */
import { describe, expect, it } from "vitest";
import { readGuardedYaml } from "../../../src/core/brief/read-guarded-yaml.js";
import { parseBriefYaml } from "../../../src/core/brief/parse-brief.js";
import { HOSTILE_YAML } from "../../fuzz/hostile-yaml.js";

const src = { name: "briefs/x.yml", defaultId: "x" };

describe("readGuardedYaml", () => {
  it.each(Object.entries(HOSTILE_YAML))("%s is refused with a reason", (_name, text) => {
    const read = readGuardedYaml(text);
    expect(read.ok).toBe(false);
    expect(read.ok ? "" : read.problems[0]?.message).toMatch(/nested|alias|key must be a plain value|more than/);
  });

  it("a few aliases within the bound are expanded as usual", () => {
    expect(readGuardedYaml("a: &p [src/**]\nb: *p\n")).toEqual({ ok: true, data: { a: ["src/**"], b: ["src/**"] } });
  });

  it("a brief whose key is a mapping names the line, not a stringified key", () => {
    const result = parseBriefYaml("goal: x\n? {a: 1}\n: v\n", src);
    expect(result.ok ? [] : result.problems).toEqual([expect.objectContaining({ field: "(yaml)", message: expect.stringMatching(/^line 2: a key must be a plain value, not a mapping/) })]);
  });

  it("an alias that expands 90 levels deep is refused although each part is 30 deep", () => {
    const read = readGuardedYaml(HOSTILE_YAML["aliases that nest past the bound"] ?? "");
    expect(read.ok ? "" : read.problems[0]?.message).toMatch(/aliases expand to more than 64 levels/);
  });
});
