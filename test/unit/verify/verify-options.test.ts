import { describe, expect, it } from "vitest";
import { parseVerifyOptions } from "../../../src/core/verify/verify-options.js";
import type { RawVerifyOptions } from "../../../src/core/verify/verify-options.js";

const base = { url: "http://127.0.0.1:8080/version", expect: "v2" };

describe("parseVerifyOptions", () => {
  it("applies the documented defaults: 5m deadline, 1s interval, K=3, 10s per probe, body as the version", () => {
    const parsed = parseVerifyOptions(base, 7);
    expect(parsed).toMatchObject({
      ok: true,
      options: {
        target: { kind: "url", url: base.url, source: { kind: "body" } },
        config: { expected: "v2", consecutive: 3, timeoutMs: 300_000, intervalMs: 1000, attemptTimeoutMs: 10_000, seed: 7 },
      },
    });
  });

  it("takes ms durations, a field, an explicit seed", () => {
    const parsed = parseVerifyOptions({ ...base, field: "/build/sha", interval: "50ms", timeout: "2s", consecutive: "5", seed: "42" }, 7);
    expect(parsed).toMatchObject({
      ok: true,
      options: { target: { source: { kind: "field", path: "/build/sha" } }, config: { intervalMs: 50, timeoutMs: 2000, consecutive: 5, seed: 42 } },
    });
  });

  it.each<[string, RawVerifyOptions, RegExp]>([
    ["no expected value", { url: base.url }, /--expect is required/],
    ["no target", { expect: "v2" }, /--url \(or --command\) is required/],
    ["both a URL and a command", { ...base, command: "echo v2" }, /not both/],
    ["a URL that is not http(s)", { ...base, url: "ftp://x/v" }, /http:\/\/ or https:\/\//],
    ["two version sources", { ...base, field: "v", header: "x-version" }, /at most one of/],
    ["a bad regular expression", { ...base, match: "(" }, /--match is not a valid regular expression/],
    ["a header for a command", { command: "echo v2", expect: "v2", header: "x-v" }, /a command has no headers/],
    ["a bad duration", { ...base, interval: "soon" }, /--interval 'soon' is not a duration/],
    ["K of zero", { ...base, consecutive: "0" }, /--consecutive '0' must be a whole number/],
    ["a deadline too short for K probes", { ...base, timeout: "1s", interval: "1s", consecutive: "3" }, /--timeout is too short/],
  ])("refuses %s, naming the option", (_name, raw, problem) => {
    const parsed = parseVerifyOptions(raw, 1);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.problems.join("\n")).toMatch(problem);
  });

  it("reports every problem at once", () => {
    const parsed = parseVerifyOptions({ interval: "x", consecutive: "-1" }, 1);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.problems.length).toBeGreaterThanOrEqual(4);
  });

  it("names options the Action's way when asked", () => {
    const parsed = parseVerifyOptions({ url: base.url }, 1, (n) => `input '${n}'`);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.problems[0]).toMatch(/^input 'expect' is required/);
  });
});
