import { describe, expect, it } from "vitest";
import { buildTrace } from "../../../src/core/replay/build-trace.js";
import { importBeadsCsv } from "../../../src/core/replay/import-beads-csv.js";
import { importBeadsJsonl } from "../../../src/core/replay/import-beads-jsonl.js";
import { importJournal } from "../../../src/core/replay/import-journal.js";
import { parseTraceTime } from "../../../src/core/replay/parse-trace-time.js";
import type { TraceProblem } from "../../../src/core/replay/trace.js";
import { H } from "./fixtures.js";

const brief = (ps: readonly TraceProblem[]): string[] => ps.map((p) => `${p.line} ${p.rule}: ${p.message}`);

const CLAIM_HEADER = "id,created_at,priority,issue_type,title,first_claim_at,claim_status,claimant,claimed_by_actor,n_claims,closed_at,closed_by,close_reason,reopens,created_event";

describe("beads CSV: malformed rows are reported with their line and rule, never dropped silently", () => {
  const csv = [
    `${CLAIM_HEADER},mystery`,
    "ok-1,2026-02-26T01:00:00Z,1,bug,\"a title, with a comma\",2026-02-26T02:00:00Z,hooked,x,y,1,2026-02-26T03:30:00Z,x,done,0,True,?",
    "bad-date,2026-02-30T01:00:00Z,1,bug,t,,,,,0,,,,0,True,?",
    "neg,2026-02-26T05:00:00Z,2,task,t,2026-02-26T06:00:00Z,hooked,x,y,1,2026-02-26T05:30:00Z,x,done,0,True,?",
    "short,row",
    "loud,2026-02-26T05:00:00Z,9,task,t,,,,,0,,,,0,True,?",
    "",
    "anon,,,,t,,,,,0,2026-02-26T05:30:00Z,x,done,0,False,?",
  ].join("\n");
  const r = importBeadsCsv(csv, "t.csv");

  it("names each problem's line and the rule applied", () => {
    expect(brief(r.problems)).toEqual([
      "1 ignored: unknown column 'mystery'",
      "3 skipped: bad-date: bad date in created '2026-02-30T01:00:00Z'",
      "4 clamped: neg: closes 0.50h before its claim: duration clamped to 0",
      "5 skipped: 2 cells where the header has 16",
      "6 clamped: loud: priority 9 outside 0..4: P4",
      "8 skipped: anon: no created time and no claim: arrival unknown",
    ]);
  });

  it("keeps the good rows, reading quoted commas and observed claim -> close durations", () => {
    expect(r.format).toBe("beads-events-claim-csv");
    expect(r.items.map((i) => i.id)).toEqual(["ok-1", "neg", "loud"]);
    expect(r.items[0]?.observed).toBe(1.5 * H);
    expect(r.items[0]?.band).toBe(1);
    expect(r.items[1]?.observed).toBe(0);
    expect(r.items[2]?.band).toBe(4);
  });

  it("reports an empty file and a header-only file instead of crashing", () => {
    expect(brief(importBeadsCsv("", "e.csv").problems)).toEqual(["0 skipped: empty file: no header and no items"]);
    const headerOnly = buildTrace([importBeadsCsv(`${CLAIM_HEADER}\n`, "h.csv")]);
    expect(brief(headerOnly.problems)).toEqual(["0 skipped: no items"]);
    expect(headerOnly.items).toEqual([]);
  });

  it("refuses a CSV with no id or created_at column, saying so", () => {
    expect(brief(importBeadsCsv("name,when\na,b\n", "x.csv").problems)).toContain("1 skipped: no 'id' column: not a beads trace, file skipped");
  });

  it("reads the work trace's lead time and clamps a close before the open to zero", () => {
    const work = importBeadsCsv(
      "id,issue_type,priority,priorities_seen,status_last,created_at,closed_at,created_by,first_assignee,n_blocks_deps,blocks_on,parent,labels\n" +
        "w1,task,2,2,closed,2025-10-14T06:00:00.5+00:00,2025-10-14T08:00:00.5+00:00,,,0,,,\n" +
        "w2,bug,1,1,closed,2025-10-14T06:00:00+02:00,2025-10-14T03:00:00+00:00,,,1,w1|gone,,\n",
      "w.csv",
    );
    expect(work.format).toBe("beads-work-csv");
    expect(work.items[0]?.leadTime).toBe(2 * H);
    expect(work.items[1]?.leadTime).toBe(0);
    expect(work.items[1]?.blockedBy).toEqual(["w1", "gone"]);
    expect(brief(work.problems)).toEqual(["3 clamped: w2: closes 1.00h before it opens: lead time clamped to 0"]);
    const trace = buildTrace([work]);
    expect(trace.durations).toEqual({ observed: 0, "class-median": 0, "lead-time": 2, default: 0 });
    expect(brief(trace.problems)).toContain("3 ignored: w2: blocker 'gone' is not in the trace: edge ignored");
  });
});

describe("beads issues.jsonl", () => {
  const jsonl = [
    JSON.stringify({ id: "bd-1", title: "x", status: "closed", priority: 1, issue_type: "bug", created_at: "2026-01-01T00:00:00Z", closed_at: "2026-01-01T02:00:00Z", claimed_at: "2026-01-01T01:00:00Z" }),
    JSON.stringify({ id: "bd-2", priority: 0, issue_type: "task", created_at: "2026-01-01T00:30:00Z", dependencies: [{ issue_id: "bd-2", depends_on_id: "bd-1", type: "blocks" }, { issue_id: "bd-2", depends_on_id: "bd-9", type: "parent-child" }] }),
    "{not json",
    JSON.stringify({ id: "bd-3", priority: "high", created_at: "yesterday" }),
    JSON.stringify({ id: "bd-4", status: "tombstone", created_at: "2026-01-01T00:00:00Z" }),
    "",
  ].join("\n");
  const r = importBeadsJsonl(jsonl, "issues.jsonl");

  it("reads blocks edges only, and claimed_at -> closed_at as an observed duration", () => {
    expect(r.items.map((i) => [i.id, i.band, i.blockedBy, i.observed ?? null])).toEqual([
      ["bd-1", 1, [], H],
      ["bd-2", 0, ["bd-1"], null],
    ]);
  });

  it("reports the bad lines by number", () => {
    expect(brief(r.problems)).toEqual(["3 skipped: not JSON", "4 skipped: bd-3: bad date in created 'yesterday'", "5 skipped: bd-4: deleted issue"]);
  });

  it("gives an item with no observed duration the class median (here: all observed) and says so", () => {
    const t = buildTrace([r]);
    expect(t.durations).toEqual({ observed: 1, "class-median": 1, "lead-time": 0, default: 0 });
    expect(t.items[1]?.duration).toBe(H);
    expect(t.durationRule).toContain("median per issue type");
  });

  it("reports an empty file", () => {
    expect(brief(importBeadsJsonl("\n\n", "e.jsonl").problems)).toEqual(["0 skipped: empty file: no items"]);
  });
});

describe("Bosun journal", () => {
  const ev = (t: string, event: string, item?: string, extra: Record<string, unknown> = {}): string => JSON.stringify({ v: 1, t: `2026-11-30T${t}Z`, event, ...(item === undefined ? {} : { item }), ...extra });
  const text = [
    ev("10:00:00.000", "CLAIM", "a", { holder: "h", epoch: 1 }),
    ev("10:00:01.000", "DISPATCH", "a", { attempt: 1 }),
    ev("10:30:01.000", "LAND", "a", { ok: false }),
    ev("11:00:00.000", "DISPATCH", "a", { attempt: 2 }),
    ev("11:15:00.000", "LAND", "a", { ok: true }),
    ev("10:05:00.000", "CLAIM", "b"),
    "garbage",
    ev("12:00:00.000", "EXPLODE", "b"),
    ev("12:00:00.000", "IDLE"),
  ].join("\n");
  const r = importJournal(text, "journal.jsonl");

  it("takes arrival at first sight and sums every attempt's DISPATCH -> LAND", () => {
    const a = r.items.find((i) => i.id === "a");
    expect(a?.observed).toBe(45 * 60_000);
    expect(a?.leadTime).toBe(75 * 60_000);
    expect(r.items.find((i) => i.id === "b")?.observed).toBeUndefined();
  });

  it("reports bad lines and the defaults it had to apply", () => {
    expect(brief(r.problems)).toEqual(["7 skipped: not a JSON object", "8 skipped: unknown event 'EXPLODE'", "0 defaulted: journal events carry no priority or pool: 2 items read as P2 in pool 'default'"]);
  });
});

describe("parseTraceTime", () => {
  it.each([
    ["2026-02-26T01:04:48Z", Date.UTC(2026, 1, 26, 1, 4, 48)],
    ["2025-10-14T06:16:29.978183+00:00", Date.UTC(2025, 9, 14, 6, 16, 29, 978)],
    ["2025-10-14T06:16:29-02:30", Date.UTC(2025, 9, 14, 8, 46, 29)],
    ["2026-12-05", Date.UTC(2026, 11, 5)],
    ["2024-02-29T00:00:00Z", Date.UTC(2024, 1, 29)],
  ])("reads %s", (text, ms) => expect(parseTraceTime(text)).toBe(ms));
  it.each(["", "yesterday", "2026-13-01", "2025-02-29", "2026-04-31T00:00:00Z", "2026-01-01T24:00:00Z", "March 7 2026"])("refuses %j", (text) => expect(parseTraceTime(text)).toBeUndefined());
});
