import { describe, expect, it } from "vitest";
import { MAX_RESULT_BYTES, readAcceptanceResult } from "../../../src/action/acceptance-result.js";

// The result file is written by the job that ran the PR's code: every field is hostile.
const SHA = "a".repeat(40);
const ok = { bosun_acceptance: 1, sha: SHA, command: "npm test", exit_code: 0, seconds: 12.5, tail: "12 passed" };
const read = (v: unknown) => readAcceptanceResult(typeof v === "string" ? v : JSON.stringify(v), "acceptance-result.json");

describe("reading the acceptance result handed over as data", () => {
  it("a well-formed result is the run it describes, at the commit it names", () => {
    expect(read(ok)).toEqual({ sha: SHA, run: { kind: "exited", command: "npm test", exitCode: 0, ms: 12_500, tail: "12 passed" } });
    expect(read({ ...ok, exit_code: 1 }).run).toMatchObject({ kind: "exited", exitCode: 1 });
    expect(read({ ...ok, exit_code: 124, timed_out: true, seconds: 600 }).run).toMatchObject({ kind: "timed-out", timeoutSeconds: 600 });
  });

  it.each([
    ["not JSON", "{ exit_code: 0", /is not JSON/],
    ["an array", [ok], /not a JSON object/],
    ["another format", { ...ok, bosun_acceptance: 2 }, /bosun_acceptance must be 1/],
    ["no sha", { ...ok, sha: undefined }, /has no sha/],
    ["a short sha", { ...ok, sha: "abc123" }, /has no sha/],
    ["an exit code as text", { ...ok, exit_code: "0" }, /no exit_code/],
    ["a negative exit code", { ...ok, exit_code: -1 }, /no exit_code/],
    ["a fractional exit code", { ...ok, exit_code: 0.5 }, /no exit_code/],
    ["no command", { ...ok, command: " " }, /names no command/],
  ])("%s is not-run (could-not-check), never a pass", (_name, value, why) => {
    const result = read(value);
    expect(result.run.kind).toBe("not-run");
    expect(result.run.kind === "not-run" ? result.run.reason : "").toMatch(why);
  });

  it("a file past the size cap is refused unread", () => {
    const result = read({ ...ok, tail: "x".repeat(MAX_RESULT_BYTES) });
    expect(result.run.kind).toBe("not-run");
    expect(result.sha).toBe("");
  });

  it("the tail is cut to 20 lines of at most 500 characters, terminal escapes and control characters removed", () => {
    const tail = [...Array.from({ length: 30 }, (_, i) => `line ${i}`), "\u001b[31mred\u001b[0m\u0007 bell", "y".repeat(900)].join("\n");
    const run = read({ ...ok, tail }).run;
    const lines = run.kind === "exited" ? run.tail.split("\n") : [];
    expect(lines).toHaveLength(20);
    expect(lines).toContain("red bell");
    expect(lines.at(-1)?.length).toBe(501);
    expect(lines[0]).toBe("line 12");
  });
});
