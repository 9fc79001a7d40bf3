/**
 * No issue body can stall or kill the App: the intake runs on every hostile body, three times
 * in a row, in one long-lived real process; each is refused with a problem naming the YAML, the
 * process never dies (a V8 abort is exit 134), and a normal body still parses afterwards.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HOSTILE_YAML } from "./hostile-yaml.js";

const SCRIPT = join(import.meta.dirname, "hostile-intake-process.ts");

describe("the App's intake on hostile issue bodies, in one process", () => {
  it("refuses each hostile body with a YAML problem, survives them all, then queues a normal body", () => {
    const run = spawnSync(process.execPath, ["--import", "tsx", SCRIPT, "3"], { encoding: "utf8", timeout: 60_000 });
    expect(run.signal).toBeNull();
    expect(run.stderr).not.toMatch(/FATAL|RangeError|Maximum call stack/);
    expect(run.status).toBe(0);
    const lines = run.stdout.trim().split("\n").map((l) => JSON.parse(l) as { name: string; outcome: string; comment?: string; ms?: number });
    const hostile = lines.filter((l) => l.name !== "normal");
    expect(hostile).toHaveLength(Object.keys(HOSTILE_YAML).length * 3);
    for (const line of hostile) {
      expect({ name: line.name, outcome: line.outcome }).toEqual({ name: line.name, outcome: "invalid" });
      expect(line.comment).toMatch(/\(yaml\)|nested|alias|key must be a plain value/);
    }
    expect(lines.at(-1)).toEqual({ name: "normal", outcome: "queued" });
  });
});
