/**
 * Durations and dates that are real: the one duration parser everywhere, finite and bounded by
 * what a Node timer can wait; calendar dates that exist; ids and claim keys that keep the schema's
 * own rules whatever the file name.
 */
import { describe, expect, it } from "vitest";
import { MAX_DURATION_MS, parseDuration, parseDurationMs, readDuration } from "../../../src/core/brief/duration.js";
import { parseBriefYaml } from "../../../src/core/brief/parse-brief.js";
import { parseVerifyOptions } from "../../../src/core/verify/verify-options.js";

const minimal = "goal: Do a thing.\nconstraints: {paths: [src/**]}\nacceptance: {command: npm test}\nsize_cap: 300\n";
const src = { name: "briefs/x.yml", defaultId: "x" };

function problemsOf(yaml: string, source = src): string[] {
  const result = parseBriefYaml(yaml, source);
  return result.ok ? [] : result.problems.map((p) => `${p.field}: ${p.message}`);
}

describe("one duration parser", () => {
  it.each([
    ["250ms", 250],
    ["0.2s", 200],
    ["90s", 90_000],
    ["30m", 1_800_000],
    ["2h", 7_200_000],
    ["45", 45_000],
    [1.5, 1500],
  ] as const)("%s is %i ms", (input, ms) => expect(parseDurationMs(input)).toBe(ms));

  it("a positive fraction of a second never rounds down to 0 seconds", () => {
    expect(parseDuration("0.2s")).toBe(1);
    expect(parseDuration("0.2s")).not.toBe(0);
  });

  it("a 400-digit amount is refused, not Infinity", () => {
    const huge = "9".repeat(400);
    expect(parseDurationMs(huge)).toBeUndefined();
    expect(parseDuration(huge)).toBeUndefined();
    expect(parseDuration(Number.POSITIVE_INFINITY)).toBeUndefined();
    expect(parseDuration(Number.NaN)).toBeUndefined();
  });

  it("refuses what setTimeout cannot wait (2^31-1 ms), naming why", () => {
    expect(MAX_DURATION_MS).toBe(2 ** 31 - 1);
    expect(readDuration("24d")).toEqual({ ok: true, ms: 24 * 86_400_000 });
    const long = readDuration("25d");
    expect(long.ok).toBe(false);
    expect(long.ok ? "" : long.problem).toMatch(/longer than 24 days .*2147483647 ms/);
    expect(parseDuration(`${2 ** 31}ms`)).toBeUndefined();
  });
});

describe("briefs hold real durations", () => {
  // The string-with-unit forms are the ones that used to slip through: YAML reads a bare 400-digit
  // number as Infinity (refused all along), but "999…9s" went through the old parser as Infinity
  // ms and came out as wall_clock: null with no problem at all.
  it.each([
    ["unquoted", `${"9".repeat(400)}s`],
    ["quoted", `"${"9".repeat(400)}s"`],
    ["bare number", "9".repeat(400)],
  ])("a 400-digit wall_clock (%s) is a problem naming the field, never null", (_form, value) => {
    const result = parseBriefYaml(`${minimal}budget: {wall_clock: ${value}}\n`, src);
    expect(result.ok).toBe(false);
    expect(result.ok ? [] : result.problems.map((p) => p.field)).toContain("budget.wall_clock");
  });

  it("a wall_clock of 25 days is refused: the worker would be killed at once", () => {
    expect(problemsOf(`${minimal}budget: {wall_clock: 25d}\n`).join("\n")).toMatch(/budget\.wall_clock: .*longer than 24 days/);
    expect(problemsOf(`${minimal}budget: {wall_clock: 600h}\n`).join("\n")).toMatch(/budget\.wall_clock/);
    expect(problemsOf(`${minimal}acceptance: {command: npm test, timeout: 3000000000ms}\n`.replace(/acceptance: \{command: npm test\}\n/, ""))).not.toEqual([]);
  });
});

describe("dates that exist", () => {
  it.each(["2026-02-30", "2026-13-01", "9999-99-99", "2026-00-10", "2026-04-31", "2025-02-29", "2026-12-05T25:00", "2026-12-05T10:61Z"])(
    "due: %s is refused",
    (due) => expect(problemsOf(`${minimal}due: ${due}\n`).join("\n")).toMatch(/^due: /m),
  );

  it.each(["2026-12-05", "2028-02-29", "2026-12-31T23:59:59Z", "2026-06-30 08:00+02:00"])("due: %s is accepted", (due) => {
    expect(problemsOf(`${minimal}due: "${due}"\n`)).toEqual([]);
  });
});

describe("ids from file names keep the schema's rule", () => {
  it("a file named 'a b!.yml' is refused naming the id, not given the claim key 'task:a b!'", () => {
    const result = parseBriefYaml(minimal, { name: "briefs/a b!.yml", defaultId: "a b!" });
    expect(result.ok).toBe(false);
    expect(result.ok ? [] : result.problems).toEqual([expect.objectContaining({ field: "id", source: "briefs/a b!.yml", message: expect.stringMatching(/id 'a b!'/) })]);
  });

  it("an id field in the brief overrides a bad file name", () => {
    const result = parseBriefYaml(`id: fine\n${minimal}`, { name: "briefs/a b!.yml", defaultId: "a b!" });
    expect(result).toMatchObject({ ok: true, brief: { id: "fine", claim_key: "task:fine" } });
  });
});

describe("verify intervals", () => {
  const base = { url: "http://127.0.0.1:8080/version", expect: "v2" };
  it("--interval 0.2s is 200 ms, not 0", () => {
    expect(parseVerifyOptions({ ...base, interval: "0.2s" }, 1)).toMatchObject({ ok: true, options: { config: { intervalMs: 200 } } });
  });

  it.each(["0", "0s", "1ms", "0.001s"])("--interval %s is refused below the 10 ms floor", (interval) => {
    const parsed = parseVerifyOptions({ ...base, interval }, 1);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? [] : parsed.problems.join("\n")).toMatch(/--interval '.*' is \d+ ms; it must be at least 10 ms/);
  });

  it("a 400-digit timeout is refused naming the flag", () => {
    const parsed = parseVerifyOptions({ ...base, timeout: "9".repeat(400) }, 1);
    expect(parsed.ok ? [] : parsed.problems.join("\n")).toMatch(/--timeout '9+' is not a duration/);
  });
});
