/**
 * Replay never drops or invents silently: one unbalanced quote costs one line, not the rest of
 * the file; every DISPATCH attempt's work is kept.
 */
import { describe, expect, it } from "vitest";
import { importBeadsCsv } from "../../../src/core/replay/import-beads-csv.js";
import { importJournal } from "../../../src/core/replay/import-journal.js";
import { parseCsv } from "../../../src/core/replay/parse-csv.js";

const HEADER = "id,created_at,closed_at,priority,issue_type";
const row = (i: number): string => `item-${i},2026-02-26T01:00:00Z,2026-02-26T02:00:00Z,1,bug`;

describe("CSV: malformed rows are counted and skipped per line", () => {
  it("one unbalanced quote in 1,000 rows costs that row only", () => {
    const lines = [HEADER, ...Array.from({ length: 1000 }, (_, i) => (i === 10 ? `item-10,"2026-02-26T01:00:00Z,2026-02-26T02:00:00Z,1,bug` : row(i)))];
    const r = importBeadsCsv(lines.join("\n"), "t.csv");
    expect(r.items).toHaveLength(999);
    expect(r.problems).toEqual([{ source: "t.csv", line: 12, message: expect.stringMatching(/never closed: row skipped/), rule: "skipped" }]);
  });

  it("a quote that closes on a later row is not allowed to swallow the rows between", () => {
    const lines = [HEADER, `a,"2026-02-26T01:00:00Z,x,1,bug`, row(1), `b,"c",2026-02-26T01:00:00Z,1,bug`, row(2)];
    const r = importBeadsCsv(lines.join("\n"), "t.csv");
    expect(r.items.map((i) => i.id)).toEqual(["item-1", "item-2"]);
    expect(r.problems.map((p) => `${p.line} ${p.rule}`)).toEqual(["2 skipped", "4 skipped"]);
  });

  it("a stray quote inside an unquoted cell is reported, the next row still read", () => {
    const rows: string[][] = [];
    const bad: number[] = [];
    parseCsv('a,b"c,d\ne,f,g\n', (r) => rows.push(r.cells), (m) => bad.push(m.line));
    expect(rows).toEqual([["e", "f", "g"]]);
    expect(bad).toEqual([1]);
  });

  it("valid quoting still works: doubled quotes, commas and newlines inside quotes", () => {
    const rows: { line: number; cells: string[] }[] = [];
    parseCsv('x,"a ""b"", c\nd",e\r\nnext,"",z\n', (r) => rows.push(r));
    expect(rows).toEqual([
      { line: 1, cells: ["x", 'a "b", c\nd', "e"] },
      { line: 3, cells: ["next", "", "z"] },
    ]);
  });
});

describe("journal import keeps every DISPATCH attempt", () => {
  const ev = (t: string, event: string, extra: Record<string, unknown> = {}): string => JSON.stringify({ v: 1, t: `2026-11-30T${t}Z`, event, item: "a", ...extra });

  it("DISPATCH, DISPATCH, LAND: the first attempt's work is counted, and said to be estimated", () => {
    const text = [ev("10:00:00.000", "CLAIM"), ev("10:00:00.000", "DISPATCH", { attempt: 1 }), ev("10:20:00.000", "DISPATCH", { attempt: 2 }), ev("10:30:00.000", "LAND", { ok: true })].join("\n");
    const r = importJournal(text, "j.jsonl");
    expect(r.items[0]?.observed).toBe(30 * 60_000);
    expect(r.problems.map((p) => `${p.line} ${p.rule}: ${p.message}`)).toContain("3 clamped: a: DISPATCH 2 while attempt 1 had no LAND: that attempt counted until its next DISPATCH");
  });

  it("a reclaimed attempt counts until its RECLAIM, not until the next DISPATCH", () => {
    const text = [ev("10:00:00.000", "DISPATCH"), ev("10:05:00.000", "RECLAIM"), ev("10:20:00.000", "DISPATCH"), ev("10:30:00.000", "LAND")].join("\n");
    expect(importJournal(text, "j.jsonl").items[0]?.observed).toBe(15 * 60_000);
  });
});
