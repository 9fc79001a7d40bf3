/** Years 0000–0099 in a trace are those years, not 1900–1999 (Date.UTC's old reading). */
import { describe, expect, it } from "vitest";
import { parseTraceTime } from "../../../src/core/replay/parse-trace-time.js";
import { formatDate } from "../../../src/core/replay/format-date.js";

describe("trace times in the first century", () => {
  // Seen failing before the fix: each came back as 19xx without a word.
  it.each([
    ["0000-01-01", "0000-01-01T00:00:00.000Z"],
    ["0099-12-31T23:59:59Z", "0099-12-31T23:59:59.000Z"],
    ["0042-06-15T12:30:00+02:00", "0042-06-15T10:30:00.000Z"],
    ["0004-02-29", "0004-02-29T00:00:00.000Z"],
  ])("%s is read as %s", (text, iso) => {
    const t = parseTraceTime(text);
    expect(t).toBeDefined();
    expect(new Date(t as number).toISOString()).toBe(iso);
  });

  it("0100 and later are unchanged, and a day that year did not have is still refused", () => {
    expect(parseTraceTime("2026-02-26T01:04:48Z")).toBe(Date.UTC(2026, 1, 26, 1, 4, 48));
    expect(parseTraceTime("0100-03-01")).toBe(Date.parse("0100-03-01T00:00:00Z"));
    expect(parseTraceTime("0001-02-29")).toBeUndefined();
  });

  it("such a time is shown with its own year", () => {
    expect(formatDate(parseTraceTime("0042-06-15T12:30:00Z") as number, "minute")).toBe("0042-06-15 12:30");
  });
});

describe("trace time offsets", () => {
  // Seen failing before the fix: each was read, 99 h 99 min or 24 h off, without a word.
  it.each(["2026-02-26T01:00:00+99:99", "2026-02-26T01:00:00+2400", "2026-02-26T01:00:00-00:60"])("%s is no time", (text) => {
    expect(parseTraceTime(text)).toBeUndefined();
  });

  it("an offset up to 23:59 either way is read", () => {
    expect(parseTraceTime("2026-02-26T01:00:00+23:59")).toBe(Date.parse("2026-02-26T01:00:00+23:59"));
    expect(parseTraceTime("2026-02-26T01:00:00-0530")).toBe(Date.parse("2026-02-26T01:00:00-05:30"));
  });
});
