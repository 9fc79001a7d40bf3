/**
 * No issue body can stall or kill the App: the tick's intake runs on every hostile body, three
 * times in a row, in one long-lived real process; each is recorded invalid with one comment naming
 * the YAML, a redelivery of the same approval posts nothing more, the process never dies (a V8
 * abort is exit 134), and a normal body is still frozen afterwards.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { INVALID_MARKER } from "../../src/core/intake/intake-comments.js";
import { HOSTILE_YAML } from "./hostile-yaml.js";

const SCRIPT = join(import.meta.dirname, "hostile-intake-process.ts");

describe("the tick's intake on hostile issue bodies, in one process", () => {
  it("records each hostile body invalid with one YAML problem comment, posts nothing on a redelivery, survives them all, then freezes a normal body", () => {
    const run = spawnSync(process.execPath, ["--import", "tsx", SCRIPT, "3"], { encoding: "utf8", timeout: 60_000 });
    expect(run.signal).toBeNull();
    expect(run.stderr).not.toMatch(/FATAL|RangeError|Maximum call stack/);
    expect(run.status).toBe(0);
    const lines = run.stdout.trim().split("\n").map((l) => JSON.parse(l) as { name: string; outcome: string; comments: string[]; again: number });
    const hostile = lines.filter((l) => l.name !== "normal");
    expect(hostile).toHaveLength(Object.keys(HOSTILE_YAML).length * 3);
    for (const line of hostile) {
      expect({ name: line.name, outcome: line.outcome, comments: line.comments.length, again: line.again }).toEqual({ name: line.name, outcome: "invalid", comments: 1, again: 0 });
      expect(line.comments[0]?.startsWith(INVALID_MARKER)).toBe(true);
      expect(line.comments[0]).toMatch(/\(yaml\)|nested|alias|key must be a plain value/);
    }
    expect(lines.at(-1)).toEqual({ name: "normal", outcome: "approved", comments: ["snapshot"], again: 0 });
  });
});
