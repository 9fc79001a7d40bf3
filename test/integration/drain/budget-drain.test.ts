/**
 * `bosun drain --budget-usd` with Claude Code's stand-in (the real tool's name and JSON result,
 * first on PATH) reporting what each run cost: under the cap no more is dispatched than fits, with
 * several workers in flight and two drains sharing one state folder; what did not fit is held by
 * budget (queued, not failed or sent to a human) and the drain exits 75; the next drain with a
 * higher cap runs exactly the held ones; and each run's `--max-budget-usd` is its reservation.
 */
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runBosun, startBosun } from "../../support/run-bosun.js";
import { standInBin, type Scenario, type StandInRecord } from "../../support/agents/stand-in-bin.js";

const brief = (usd?: number) => `goal: Do one small thing.\nconstraints: {paths: [src/**]}\nacceptance: {command: "true"}\nsize_cap: 10\n${usd === undefined ? "" : `budget: {usd: ${usd}}\n`}`;

/** A seeded stream of numbers in [0, 1) (mulberry32): the same folder for the same seed. */
function seeded(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function world(items: Record<string, { usd?: number; costs: number }>) {
  const dir = await mkdtemp(join(tmpdir(), "bosun-budget-"));
  await mkdir(join(dir, "briefs"));
  for (const [id, i] of Object.entries(items)) await writeFile(join(dir, "briefs", `${id}.yml`), brief(i.usd));
  execFileSync("git", ["init", "-q", dir]);
  const scenarios: Record<string, Scenario> = {};
  for (const [id, i] of Object.entries(items)) scenarios[id] = { usd: i.costs, sleepMs: 30 };
  const bin = await standInBin({ claude: scenarios });
  const env = { PATH: `${bin.dir}:${process.env["PATH"] ?? ""}` };
  return { dir, bin, env };
}

async function journal(dir: string): Promise<Array<Record<string, unknown>>> {
  const text = await readFile(join(dir, ".bosun", "journal.jsonl"), "utf8");
  return text
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

const maxBudget = (r: StandInRecord): string | undefined => {
  const i = r.args.indexOf("--max-budget-usd");
  return i < 0 ? undefined : r.args[i + 1];
};

const landedUsd = (events: Array<Record<string, unknown>>): number => events.filter((e) => e["event"] === "LAND").reduce((sum, e) => sum + ((e["cost"] as { usd?: number } | undefined)?.usd ?? 0), 0);

describe("bosun drain under a money cap", () => {
  it("dispatches only what fits, holds the rest, exits 75, hands each run its reservation, and a higher cap runs exactly the held ones", async () => {
    // a and b name their own cap; the others reserve --item-usd 0.5. Each costs what it reports.
    const items: Record<string, { usd?: number; costs: number }> = { a: { usd: 0.8, costs: 0.6 }, b: { usd: 0.3, costs: 0.3 }, c: { costs: 0.45 }, d: { costs: 0.2 }, e: { costs: 0.5 }, f: { costs: 0.1 } };
    const w = await world(items);
    const first = await runBosun(["drain", "--agent", "claude-code", "--pool", "3", "--budget-usd", "1.5", "--item-usd", "0.5", "--quiet", "--json"], { cwd: w.dir, env: w.env });
    expect(first.code, first.stderr).toBe(75);
    const events = await journal(w.dir);
    const ran = events.filter((e) => e["event"] === "DISPATCH").map((e) => e["item"] as string);
    expect(ran.length).toBeGreaterThan(0);
    expect(landedUsd(events)).toBeLessThanOrEqual(1.5 + 1e-9);
    // Each run was handed its reservation as Claude Code's own cap.
    for (const r of await w.bin.records()) expect(maxBudget(r)).toBe(String(items[r.item]?.usd ?? 0.5));
    const summary = (JSON.parse(first.stdout.trim().split("\n").at(-1) as string) as { summary: { held_by_budget: Array<{ item: string; summary: string }>; failed: unknown[]; needs_human: unknown[] } }).summary;
    const held = summary.held_by_budget.map((h) => h.item).sort();
    expect(held.length).toBeGreaterThan(0);
    expect([...held, ...ran].sort()).toEqual(Object.keys(items).sort());
    expect(summary.failed).toEqual([]);
    expect(summary.needs_human).toEqual([]);
    // Each held item is journalled HOLD, naming the cap and when it resets.
    for (const id of held) expect(events.find((e) => e["event"] === "HOLD" && e["item"] === id)).toMatchObject({ reason: "budget", cap: "--budget-usd", resets: expect.stringMatching(/T00:00:00\.000Z$/) });
    expect(summary.held_by_budget[0]?.summary).toMatch(/^held by budget: --budget-usd has \$\d+\.\d+ left of its UTC day, the item reserves \$\d/);

    // Nothing changed: the same cap holds them again, and runs nothing.
    const again = await runBosun(["drain", "--agent", "claude-code", "--pool", "3", "--budget-usd", "1.5", "--item-usd", "0.5", "--quiet"], { cwd: w.dir, env: w.env });
    expect(again.code).toBe(75);
    expect((await w.bin.records()).length).toBe(ran.length);

    // A higher cap for the same day runs exactly the held ones.
    const before = (await w.bin.records()).length;
    const second = await runBosun(["drain", "--agent", "claude-code", "--pool", "3", "--budget-usd", "10", "--item-usd", "0.5", "--quiet"], { cwd: w.dir, env: w.env });
    expect(second.code, second.stdout).toBe(0);
    const later = (await w.bin.records()).slice(before).map((r) => r.item).sort();
    expect(later).toEqual(held);
  });

  it("two drains with several workers each never spend past one cap between them (seeds)", async () => {
    for (const seed of [1, 2, 3]) {
      const random = seeded(seed);
      const items: Record<string, { usd?: number; costs: number }> = {};
      for (let i = 0; i < 10; i++) {
        const own = random() < 0.4 ? Math.round(random() * 60 + 10) / 100 : undefined;
        const reserve = own ?? 0.4;
        // An agent keeps to its cap (the stand-in stops at --max-budget-usd); some try to go past it.
        items[`s${seed}i${i}`] = { ...(own === undefined ? {} : { usd: own }), costs: Math.round(random() * reserve * 130) / 100 };
      }
      const cap = Math.round((1 + random() * 1.5) * 100) / 100;
      const w = await world(items);
      const args = ["drain", "--agent", "claude-code", "--pool", "3", "--budget-usd", String(cap), "--item-usd", "0.4", "--quiet"];
      const runs = await Promise.all([startBosun(args, { cwd: w.dir, env: w.env }).done, startBosun(args, { cwd: w.dir, env: w.env }).done]);
      const events = await journal(w.dir);
      // A run that hit its own cap stops out of budget (a person re-scopes it): the only failure here.
      const overCap = events.some((e) => e["event"] === "LAND" && (e["stop"] as { limit?: string }).limit === "usd");
      for (const r of runs) expect(overCap ? [0, 1, 75] : [0, 75], `seed ${seed}: ${r.stdout.split("\n").filter((l) => /Summary|needs|failed/.test(l)).join(" / ")}`).toContain(r.code);
      expect(landedUsd(events), `seed ${seed}`).toBeLessThanOrEqual(cap + 1e-9);
      // Nothing left in flight, and what the ledger counts as spent today is within the cap too.
      const ledger = JSON.parse(await readFile(join(w.dir, ".bosun", "budget", "ledger.json"), "utf8")) as { reservations: unknown[]; spent: Array<{ micros: number }> };
      expect(ledger.reservations).toEqual([]);
      expect(ledger.spent.reduce((s, e) => s + e.micros, 0)).toBeLessThanOrEqual(Math.round(cap * 1e6));
      // No item ran twice, and none failed or went to a human for money.
      const dispatched = events.filter((e) => e["event"] === "DISPATCH").map((e) => e["item"]);
      expect(new Set(dispatched).size).toBe(dispatched.length);
      expect(events.filter((e) => e["event"] === "LAND" && e["ok"] !== true && (e["stop"] as { limit?: string }).limit !== "usd")).toEqual([]);
    }
  });
});
