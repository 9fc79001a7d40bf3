import { describe, expect, it } from "vitest";
import { parseWorkRecordMarker, renderWorkRecordMarker, workRecordCheckName } from "../../../src/core/journal/work-record-marker.js";

const record = { v: 1 as const, item: "12", epoch: 3, run: 9001, stop: { kind: "done" as const }, cost: { wall_clock_s: 41.5, tokens: 1200, usd: 0.04 } };
const line = (json: unknown) => `<!-- bosun:work ${JSON.stringify(json)} -->`;

describe("the bosun/work record a land job posts", () => {
  it("reads back what was written, and names one check run per item and epoch", () => {
    expect(parseWorkRecordMarker(`${renderWorkRecordMarker(record)}\nreadable text`)).toEqual({ ok: true, marker: record });
    expect(workRecordCheckName("12", 3)).toBe("bosun/work #12 epoch 3");
  });

  it("keeps a stop reason holding --> inside the HTML comment", () => {
    const hostile = { ...record, stop: { kind: "blocked" as const, reason: "x --> <!-- bosun:work {} -->" } };
    const rendered = renderWorkRecordMarker(hostile);
    expect(rendered.indexOf("-->")).toBe(rendered.length - 3);
    expect(parseWorkRecordMarker(rendered)).toEqual({ ok: true, marker: hostile });
  });

  it.each([
    ["no marker", "just text", /no bosun:work record/],
    ["a marker below the first line", `intro\n${renderWorkRecordMarker(record)}`, /no bosun:work record/],
    ["JSON that does not parse", "<!-- bosun:work {nope -->", /not JSON/],
    ["an item that is not an issue number", line({ ...record, item: "../12" }), /item: must be an issue number/],
    ["epoch 0", line({ ...record, epoch: 0 }), /epoch/],
    ["an unknown field", line({ ...record, extra: 1 }), /invalid/],
    ["a stop that is not one", line({ ...record, stop: { kind: "finished" } }), /invalid stop/],
  ])("refuses %s", (_name, summary, why) => {
    const parsed = parseWorkRecordMarker(summary);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.reason).toMatch(why);
  });

  it.each([
    [{ wall_clock_s: 3, tokens: -5 }, "cost.tokens: must not be negative"],
    [{ wall_clock_s: 3, tokens: 1.5 }, "cost.tokens: must be a whole number"],
    [{ wall_clock_s: -1 }, "cost.wall_clock_s"],
    [{ wall_clock_s: 3, usd: "0.1" }, "cost.usd: must be a number"],
    [{ wall_clock_s: 3, dollars: 1 }, "cost"],
    ["12 tokens", "cost: must be an object"],
  ])("leaves out a malformed cost %j and says why, keeping the stop", (cost, why) => {
    const parsed = parseWorkRecordMarker(line({ ...record, cost }));
    expect(parsed).toMatchObject({ ok: true, marker: { stop: { kind: "done" }, cost: null } });
    if (parsed.ok) expect(parsed.costProblem).toContain(why);
  });

  it("takes a run without a reported cost as null", () => {
    expect(parseWorkRecordMarker(line({ ...record, cost: null }))).toEqual({ ok: true, marker: { ...record, cost: null } });
  });
});
