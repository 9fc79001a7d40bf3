/**
 * `bosun replay --budget-usd` over a journal a real drain wrote (its worker reporting each run's
 * cost on LAND, one run reporting none): how many items each policy completes under the daily
 * budget and at what weighted flow time; what it says of a trace with no costs at all.
 */
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runBosun } from "../../support/run-bosun.js";

const TRACES = new URL("../../fixtures/traces/", import.meta.url).pathname;
const COSTS: Record<string, number | undefined> = { i1: 0.5, i2: 1.2, i3: 0.3, i4: 0.8, i5: undefined, i6: 0.4 };

interface Budget {
  daily_usd: number;
  horizon: string;
  costs_known: number;
  costs_estimated: number;
  cost_rule: string;
  policies: Array<{ policy: string; completed: number; items: number; weighted_flow_time_h: number | null; spent_usd: number; held_days: number; never_fits: number }>;
}

describe("bosun replay --budget-usd", () => {
  it("replays a drain's own journal under a daily budget: what each policy completes, at what flow time, for what spend", async () => {
    const dir = await mkdtemp(join(tmpdir(), "bosun-replay-budget-"));
    await mkdir(join(dir, "briefs"));
    for (const id of Object.keys(COSTS)) await writeFile(join(dir, "briefs", `${id}.yml`), `goal: Do ${id}.\nconstraints: {paths: [src/**]}\nacceptance: {command: "true"}\nsize_cap: 10\n`);
    const cases = Object.entries(COSTS).map(([id, usd]) => `  ${id}) echo '{"kind":"done"${usd === undefined ? "" : `,"cost":{"usd":${usd}}`}}' > "$BOSUN_RESULT" ;;`);
    await writeFile(join(dir, "worker.sh"), `case "$BOSUN_ITEM" in\n${cases.join("\n")}\nesac\n`);
    execFileSync("git", ["init", "-q", dir]);
    const drain = await runBosun(["drain", "--run", "sh worker.sh", "--pool", "1", "--quiet"], { cwd: dir });
    expect(drain.code, drain.stderr).toBe(0);
    const journal = join(dir, ".bosun", "journal.jsonl");

    const replay = async (budget: string) => {
      const run = await runBosun(["replay", journal, "--workers", "1", "--policy", "oldest,hybrid,fair-guard", "--budget-usd", budget, "--json"], { cwd: dir });
      expect(run.code, run.stderr).toBe(0);
      return JSON.parse(run.stdout) as { trace: { first_arrival: string }; policies: Array<{ policy: string; weighted_flow_time_h: number }>; budget: Budget };
    };

    // Ample: every item completes, with the flow times of the replay without a budget.
    const ample = await replay("1000");
    expect(ample.budget).toMatchObject({ daily_usd: 1000, costs_known: 5, costs_estimated: 1, cost_rule: expect.stringContaining("the median of the recorded costs, $0.50") });
    for (const p of ample.budget.policies) {
      expect(p).toMatchObject({ completed: 6, items: 6, held_days: 0, never_fits: 0 });
      expect(p.spent_usd).toBeCloseTo(3.2 + 0.5, 9);
      expect(p.weighted_flow_time_h).toBeCloseTo(ample.policies.find((q) => q.policy === p.policy)?.weighted_flow_time_h as number, 3);
    }

    // $2 a day: oldest takes items in the order they arrived while they fit, and stops at the first
    // that does not (nothing behind it jumps ahead); the rest wait for days past the horizon.
    const tight = await replay("2");
    const events = (await readFile(journal, "utf8")).trim().split("\n").map((l) => JSON.parse(l) as { t: string; item?: string });
    const firstSeen = new Map<string, string>();
    for (const e of events) if (e.item !== undefined && !firstSeen.has(e.item)) firstSeen.set(e.item, e.t);
    const order = [...firstSeen.entries()].sort((a, b) => a[1].localeCompare(b[1]) || a[0].localeCompare(b[0])).map(([id]) => id);
    let fits = 0;
    let spent = 0;
    for (const id of order) {
      const usd = COSTS[id] ?? 0.5;
      if (spent + usd > 2) break;
      spent += usd;
      fits++;
    }
    // Unless the drain ran across midnight UTC: then the replay has a second day of budget.
    const days = Math.round((Date.parse(tight.budget.horizon) - Date.parse(`${tight.trace.first_arrival.slice(0, 10)}T00:00:00Z`)) / 86_400_000);
    const oldest = tight.budget.policies.find((p) => p.policy === "oldest");
    if (days === 1) {
      expect(oldest?.completed).toBe(fits);
      expect(oldest?.spent_usd).toBeCloseTo(spent, 9);
    }
    for (const p of tight.budget.policies) {
      expect(p.completed).toBeLessThan(6);
      expect(p.spent_usd).toBeLessThanOrEqual(2 * days + 1e-9);
      expect(p.held_days).toBeGreaterThanOrEqual(1);
    }

    const table = await runBosun(["replay", journal, "--workers", "1", "--policy", "oldest", "--budget-usd", "2"], { cwd: dir });
    expect(table.stdout).toMatch(/under a daily budget of \$2\.00 \(UTC days\), up to \S+Z/);
    expect(table.stdout).toMatch(/costs: 5 recorded, 1 estimated/);
    expect(table.stdout).toMatch(new RegExp(`oldest\\s+${oldest?.completed ?? "x"}/6\\s`));
    const html = await runBosun(["replay", journal, "--workers", "1", "--policy", "oldest", "--budget-usd", "2", "--format", "html"], { cwd: dir });
    expect(html.stdout).toContain("<h2>Under a daily budget of $2.00</h2>");
    expect(html.stdout).toContain(`<td>oldest</td><td>${oldest?.completed ?? "x"} of 6</td>`);
  }, 60_000);

  it("a trace that records no cost is refused with the reason, never replayed as if free; a bad figure is a usage error", async () => {
    const beads = await runBosun(["replay", "beads_events_claim_trace.csv", "--budget-usd", "20"], { cwd: TRACES });
    expect(beads.code).toBe(2);
    expect(beads.stderr).toContain("--budget-usd: none of the trace's 224 items records a cost: a Bosun journal records what each run cost");
    expect(beads.stdout).toBe("");
    for (const bad of ["0", "-3", "lots", "1e3"]) {
      const run = await runBosun(["replay", "beads_events_claim_trace.csv", `--budget-usd=${bad}`], { cwd: TRACES });
      expect(run.code, bad).toBe(2);
      expect(run.stderr).toContain("--budget-usd must be a number of US dollars above 0");
    }
  }, 60_000);
});
