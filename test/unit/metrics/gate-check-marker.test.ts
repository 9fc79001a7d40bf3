import { describe, expect, it } from "vitest";
import { parseGateCheckMarker, renderGateCheckMarker } from "../../../src/core/journal/gate-check-marker.js";

const SHA = "a".repeat(40);
const HASH = `sha256:${"b".repeat(64)}`;
const marker = renderGateCheckMarker({ v: 1, item: "12", brief: HASH, verdict: "fail", sha: SHA });

describe("the bosun/gate check-run marker", () => {
  it("round-trips on the summary's first line", () => {
    expect(parseGateCheckMarker(`${marker}\n## Bosun gate: fail`)).toEqual({ ok: true, marker: { v: 1, item: "12", brief: HASH, verdict: "fail", sha: SHA } });
  });

  it("ignores a marker anywhere but the first line, as a file name in the report could carry one", () => {
    const forged = renderGateCheckMarker({ v: 1, item: "12", brief: HASH, verdict: "pass", sha: SHA });
    expect(parseGateCheckMarker(`## Bosun gate: fail\n- \`${forged}\`: outside the allowed paths`)).toMatchObject({ ok: false });
  });

  it.each([
    ["no summary", null],
    ["not JSON", "<!-- bosun:gate {nope -->"],
    ["an unknown verdict", marker.replace('"fail"', '"neutral"')],
    ["a short sha", marker.replace(SHA, "abc123")],
    ["an extra field", marker.replace('"v":1', '"v":1,"class":"x"')],
  ])("refuses %s, saying why", (_, summary) => {
    const parsed = parseGateCheckMarker(summary);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.reason).toMatch(/bosun:gate marker/);
  });
});
