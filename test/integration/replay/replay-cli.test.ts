import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough, Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { main } from "../../../src/cli/main.js";

const TRACES = new URL("../../fixtures/traces/", import.meta.url).pathname;

function sink(): { stream: Writable; text: () => string } {
  const chunks: string[] = [];
  return { stream: new Writable({ write: (c: Buffer | string, _e, cb) => (chunks.push(String(c)), cb()) }), text: () => chunks.join("") };
}

async function bosun(args: string[], cwd = TRACES): Promise<{ code: number; out: string; err: string }> {
  const out = sink();
  const err = sink();
  const code = await main(args, { stdout: out.stream, stderr: err.stream, stdin: new PassThrough(), env: {}, cwd });
  return { code, out: out.text(), err: err.text() };
}

const POLICY_FIELDS = ["policy", "weighted_flow_time_h", "mean_flow_time_h", "p95_flow_time_h_by_band", "n_by_band", "max_wait_h_by_band", "unblocking_throughput", "lower_bound_weighted_flow_time_h", "gap_to_bound", "idle_with_work"];

describe("bosun replay over the beads traces", () => {
  it.each([
    ["beads_events_claim_trace.csv", 224, { observed: 152, "class-median": 72, "lead-time": 0, default: 0 }],
    ["beads_work_trace.csv", 1985, { observed: 0, "class-median": 533, "lead-time": 1452, default: 0 }],
  ])("%s: the JSON report has DESIGN.md's shape, every policy work-conserving and above the bound", async (file, items, durations) => {
    const { code, out } = await bosun(["replay", file, "--format", "json", "--workers", "16"]);
    expect(code).toBe(0);
    const report = JSON.parse(out) as { trace: Record<string, unknown>; workers: number; policies: Record<string, unknown>[] };
    expect(Object.keys(report)).toEqual(["trace", "workers", "policies"]);
    expect(report.workers).toBe(16);
    expect(report.trace["items"]).toBe(items);
    expect(report.trace["durations"]).toEqual(durations);
    expect(report.policies.map((p) => p["policy"])).toEqual(["oldest", "priority", "hybrid", "index", "fair", "smith", "fair-static", "fair-guard"]);
    const bound = report.policies[0]?.["lower_bound_weighted_flow_time_h"];
    for (const p of report.policies) {
      expect(Object.keys(p)).toEqual(POLICY_FIELDS);
      expect(Object.keys(p["n_by_band"] as object)).toEqual(["0", "1", "2", "3", "4"]);
      expect(Object.values(p["n_by_band"] as Record<string, number>).reduce((s, n) => s + n, 0)).toBe(items);
      expect(p["idle_with_work"]).toBe(0);
      expect(p["lower_bound_weighted_flow_time_h"]).toBe(bound);
      expect(p["gap_to_bound"] as number).toBeGreaterThanOrEqual(1);
    }
  });

  it("prints a table by default, naming the duration rule and the problems with their lines", async () => {
    const { code, out } = await bosun(["replay", "beads_events_claim_trace.csv", "--policy", "hybrid,smith", "--workers", "4"]);
    expect(code).toBe(0);
    expect(out).toMatch(/durations: 152 observed, 72 class median/);
    expect(out).toMatch(/beads_events_claim_trace\.csv:\d+: .* \[skipped\]/);
    expect(out).toMatch(/^hybrid\s/m);
    expect(out).toMatch(/^smith\s/m);
  });

  it("writes a self-contained HTML report with charts", async () => {
    const dir = await mkdtemp(join(tmpdir(), "bosun-replay-"));
    const { code } = await bosun(["replay", join(TRACES, "beads_work_trace.csv"), "--format", "html", "--out", "r.html", "--workers", "32"], dir);
    expect(code).toBe(0);
    const html = await readFile(join(dir, "r.html"), "utf8");
    expect(html.match(/<svg/g)?.length).toBe(4);
    expect(html).not.toMatch(/<script|<link|src=/);
    expect(html).toContain("lowest weighted flow time");
  });

  it("replays a generated trace (gen:N) and a journal, merging several TRACE arguments", async () => {
    const dir = await mkdtemp(join(tmpdir(), "bosun-replay-"));
    const journal = ['{"v":1,"t":"2026-11-30T15:00:00.000Z","event":"CLAIM","item":"j1","holder":"h","epoch":1}', '{"v":1,"t":"2026-11-30T15:00:01.000Z","event":"DISPATCH","item":"j1","attempt":1}', '{"v":1,"t":"2026-11-30T15:10:01.000Z","event":"LAND","item":"j1","ok":true}'].join("\n");
    await writeFile(join(dir, "journal.jsonl"), journal);
    const { code, out } = await bosun(["replay", "gen:500", "journal.jsonl", "--seed", "3", "--format", "json"], dir);
    expect(code).toBe(0);
    const report = JSON.parse(out) as { trace: { items: number; sources: { format: string }[] } };
    expect(report.trace.items).toBe(501);
    expect(report.trace.sources.map((s) => s.format)).toEqual(["beads-events-claim-csv", "bosun-journal"]);
  });

  it.each([
    [["replay"], "no TRACE"],
    [["replay", "beads_work_trace.csv", "--policy", "fifo"], "unknown policy fifo"],
    [["replay", "beads_work_trace.csv", "--workers", "0"], "--workers must be a positive integer"],
    [["replay", "beads_work_trace.csv", "--format", "pdf"], "--format must be"],
    [["replay", "no-such-file.csv"], "cannot read no-such-file.csv: ENOENT"],
    [["replay", "beads_work_trace.csv", "--bogus"], "Unknown option"],
  ])("exits 2 on a usage error: %j", async (args, message) => {
    const { code, err } = await bosun(args);
    expect(code).toBe(2);
    expect(err).toContain(message);
  });

  // Seen before: 300 KB of NULs, random bytes or an empty file replayed to a table of dashes, exit 0.
  it("exits 2 when no file given holds a single item, saying what each was taken for", async () => {
    const dir = await mkdtemp(join(tmpdir(), "bosun-replay-none-"));
    await writeFile(join(dir, "nuls.csv"), Buffer.alloc(300_000));
    await writeFile(join(dir, "empty.jsonl"), "");
    for (const files of [["nuls.csv"], ["empty.jsonl"], ["nuls.csv", "empty.jsonl"]]) {
      const { code, out, err } = await bosun(["replay", ...files], dir);
      expect(code, err).toBe(2);
      expect(out).toBe("");
      expect(err).toContain("nothing to replay");
      for (const f of files) expect(err).toContain(f);
    }
    // One good file beside a bad one still replays (the bad one is listed among the problems).
    const mixed = await bosun(["replay", join(TRACES, "beads_events_claim_trace.csv"), "nuls.csv", "--format", "json"], dir);
    expect(mixed.code, mixed.err).toBe(0);
  });
});
