/**
 * `bosun stats` money lines from a state folder a real drain wrote: Claude Code's stand-in (first
 * on PATH) reports what each run cost, under `--budget-usd` and `--item-usd`; one item retries once,
 * one is refused, one does not fit and is held; real `bosun gate --state` runs accept two items and
 * reject one. Stats then says what today and this week spent against the cap the drain recorded,
 * where the money went, and what an accepted task cost per class, agent and tier. Nothing here
 * writes a journal or ledger line by hand.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runBosun } from "../../support/run-bosun.js";
import { standInBin } from "../../support/agents/stand-in-bin.js";
import { TempRepo } from "../gate/temp-repo.js";

const brief = (id: string, claimKey: string, usd?: number, priority = 2) => `id: ${id}
priority: ${priority}
goal: Change one file under src/${id}.
constraints: {paths: [src/${id}/**]}
acceptance: {command: "true", timeout: 20s}
size_cap: 50
claim_key: ${claimKey}
${usd === undefined ? "" : `budget: {usd: ${usd}}\n`}`;

interface Money {
  now: string;
  ledger: {
    found: boolean;
    windows: Array<{ window: string; start: string; spent_usd: number; reserved_usd: number }>;
    caps: Array<{ cap: string; window: string; start: string; cap_usd: number; spent_usd: number; reserved_usd: number; left_usd: number; used_share: number }>;
  };
  caps_recorded: { holder: string; at: string; item_usd?: number } | null;
  spend: { runs: number; usd: number; runs_at_reservation: number; runs_without_cost: number; by_outcome: Record<string, { runs: number; usd: number; share: number | null }> };
  per_accepted_task: Record<"by_class" | "by_agent" | "by_tier", Array<{ key: string; runs: number; usd: number; accepted_tasks: number; per_accepted_task_usd: number | null }>>;
}

let repo: TempRepo;
afterEach(() => repo.remove());

describe("bosun stats: money", () => {
  it("spend today and this week against the recorded cap, where the money went, and cost per accepted task by class, agent and tier", async () => {
    repo = new TempRepo();
    repo.write("briefs/fix-a.yml", brief("fix-a", "bugfix:fix-a", 0.8)).write("briefs/fix-b.yml", brief("fix-b", "bugfix:fix-b"));
    repo.write("briefs/feat-c.yml", brief("feat-c", "feature:feat-c")).write("briefs/feat-d.yml", brief("feat-d", "feature:feat-d"));
    // Last in the queue: a held item holds everything behind it.
    repo.write("briefs/big.yml", brief("big", "task:big", 5, 4));
    repo.write(".gitignore", ".bosun/\n").write("src/fix-a/a.ts", "a\n").write("src/fix-b/b.ts", "b\n").write("src/feat-c/c.ts", "c\n").commit("base");
    const bin = await standInBin({
      claude: {
        "fix-a": { usd: 0.6 },
        "fix-b": { usd: 0.3 },
        // Fails once (retried, and paid for), then lands.
        "feat-c": [{ usd: 0.2, result: { kind: "failed", failure: "retry", reason: "flaky test run" } }, { usd: 0.4 }],
        "feat-d": { usd: 0.1, result: { kind: "failed", failure: "refuse", reason: "outside what the brief allows" } },
        big: { usd: 4 },
      },
    });
    const env = { PATH: `${bin.dir}:${process.env["PATH"] ?? ""}` };
    const state = join(repo.dir, ".bosun");

    const drain = await runBosun(["drain", "--agent", "claude-code", "--pool", "2", "--budget-usd", "3", "--item-usd", "0.5", "--quiet", "--backoff", "10ms"], { cwd: repo.dir, env });
    // feat-d was refused (exit 1); big reserves $5 of a $3 day, so it is held by budget.
    expect(drain.code, drain.stderr).toBe(1);
    const events = await journalLines(state);
    expect(events.find((e) => e["event"] === "HOLD")).toMatchObject({ item: "big", reason: "budget", cap: "--budget-usd" });
    const dispatches = events.filter((e) => e["event"] === "DISPATCH");
    expect(dispatches.map((d) => d["item"]).sort()).toEqual(["feat-c", "feat-c", "feat-d", "fix-a", "fix-b"]);
    for (const d of dispatches) expect(d).toMatchObject({ agent: "claude-code", tier: expect.any(String), class: expect.stringMatching(/^(bugfix|feature)$/) });

    // fix-a and feat-c pass their gate; fix-b's change goes outside its brief and fails.
    const gate = async (id: string, files: Record<string, string>, code: number) => {
      repo.git("checkout", "-q", "-b", `work-${id}`);
      for (const [path, text] of Object.entries(files)) repo.write(path, text);
      repo.commit(id).git("checkout", "-q", "main");
      const run = await runBosun(["gate", "--brief", `briefs/${id}.yml`, "--base", "main", "--head", `work-${id}`, "--state", state], { cwd: repo.dir });
      expect(run.code, run.stdout).toBe(code);
    };
    await gate("fix-a", { "src/fix-a/a.ts": "a\nb\n" }, 0);
    await gate("fix-b", { "src/fix-b/b.ts": "b\nc\n", "src/elsewhere.ts": "x\n" }, 1);
    await gate("feat-c", { "src/feat-c/c.ts": "c\nd\n" }, 0);

    const stats = await runBosun(["stats", "--state", state, "--json"], { cwd: repo.dir });
    expect(stats.code, stats.stderr).toBe(0);
    const money = (JSON.parse(stats.stdout) as { money: Money }).money;

    // The cap the drain recorded, and what the ledger counts against it: every run landed, so all
    // of it is spent and none reserved. Counted in the UTC day the runs were reserved in: the one
    // stats names, unless the test ran across midnight (then today's figure is rightly 0).
    expect(money.caps_recorded).toMatchObject({ holder: expect.stringMatching(/^drain-/), item_usd: 0.5 });
    const spent = 0.6 + 0.3 + 0.2 + 0.4 + 0.1;
    const reservedDay = (dispatches[0]?.["t"] as string).slice(0, 10);
    const today = money.now.slice(0, 10) === reservedDay ? spent : 0;
    expect(money.ledger.found).toBe(true);
    expect(money.ledger.caps).toHaveLength(1);
    const cap = money.ledger.caps[0];
    expect(cap).toMatchObject({ cap: "--budget-usd", window: "day", cap_usd: 3, reserved_usd: 0 });
    expect(cap?.spent_usd).toBeCloseTo(today, 9);
    expect(cap?.left_usd).toBeCloseTo(3 - today, 9);
    expect(cap?.used_share).toBeCloseTo(today / 3, 9);
    const week = money.ledger.windows.find((w) => w.window === "week");
    expect(week?.spent_usd).toBeCloseTo(weekOf(money.now) === weekOf(`${reservedDay}T12:00:00Z`) ? spent : 0, 9);

    // Where the money went: fix-a and feat-c's landing accepted; fix-b landed but its gate failed;
    // feat-d refused; feat-c's first attempt failed.
    expect(money.spend.runs).toBe(5);
    expect(money.spend.usd).toBeCloseTo(spent, 9);
    const by = money.spend.by_outcome;
    expect([by["accepted"]?.runs, by["not_accepted"]?.runs, by["refused"]?.runs, by["failed"]?.runs]).toEqual([2, 1, 1, 1]);
    expect(by["accepted"]?.usd).toBeCloseTo(1.0, 9);
    expect(by["not_accepted"]?.usd).toBeCloseTo(0.3, 9);
    expect(by["refused"]?.usd).toBeCloseTo(0.1, 9);
    expect(by["failed"]?.usd).toBeCloseTo(0.2, 9);
    expect(by["accepted"]?.share).toBeCloseTo(1.0 / spent, 9);

    // Per accepted task: a class pays for all its runs, accepted or not.
    const cls = Object.fromEntries(money.per_accepted_task.by_class.map((g) => [g.key, g]));
    expect(cls["bugfix"]).toMatchObject({ runs: 2, accepted_tasks: 1 });
    expect(cls["bugfix"]?.per_accepted_task_usd).toBeCloseTo(0.9, 9);
    expect(cls["feature"]).toMatchObject({ runs: 3, accepted_tasks: 1 });
    expect(cls["feature"]?.per_accepted_task_usd).toBeCloseTo(0.7, 9);
    expect(money.per_accepted_task.by_agent).toEqual([{ key: "claude-code", runs: 5, usd: expect.closeTo(spent, 9), runs_without_cost: 0, accepted_tasks: 2, per_accepted_task_usd: expect.closeTo(spent / 2, 9) }]);
    expect(money.per_accepted_task.by_tier.reduce((n, g) => n + g.accepted_tasks, 0)).toBe(2);

    // The same in words.
    const table = await runBosun(["stats", "--state", state], { cwd: repo.dir });
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/caps as drain-\S+ set them at \S+: --budget-usd \$3\.00 a UTC day; an item without budget\.usd reserves \$0\.50/);
    expect(table.stdout).toMatch(/today\s+\d{4}-\d\d-\d\d\s+--budget-usd\s+\$3\.00\s+\$\d\.\d\d\s+\$0\.00\s+\$\d\.\d\d\s+\d+\.\d%/);
    expect(table.stdout).toMatch(/Where the money went \(5 runs, \$1\.60\)/);
    expect(table.stdout).toMatch(/failed\s+1\s+\$0\.20\s+12\.5%/);
    expect(table.stdout).toMatch(/ {2}feature\s+3\s+\$0\.70\s+1\s+\$0\.70/);
  }, 120_000);

  it("a state folder no budget ever ran in says so, and runs without a cost are left out, not counted as free", async () => {
    repo = new TempRepo();
    repo.write("briefs/one.yml", brief("one", "task:one")).write("worker.sh", "exit 0\n").write(".gitignore", ".bosun/\n").commit("base");
    const state = join(repo.dir, ".bosun");
    const drain = await runBosun(["drain", "--run", "sh worker.sh", "--quiet"], { cwd: repo.dir });
    expect(drain.code).toBe(0);
    const stats = await runBosun(["stats", "--state", state, "--json"], { cwd: repo.dir });
    const money = (JSON.parse(stats.stdout) as { money: Money }).money;
    expect(money.caps_recorded).toBeNull();
    expect(money.ledger.found).toBe(false);
    expect(money.spend).toMatchObject({ runs: 1, usd: 0, runs_without_cost: 1 });
    expect(money.per_accepted_task.by_agent).toEqual([{ key: "command", runs: 1, usd: 0, runs_without_cost: 1, accepted_tasks: 0, per_accepted_task_usd: null }]);
    const table = await runBosun(["stats", "--state", state], { cwd: repo.dir });
    expect(table.stdout).toContain("no caps recorded: a drain run with --budget-usd or --item-usd records the ones it applies");
    expect(table.stdout).toContain("Where the money went (1 runs, $0.00; 1 with no cost known are left out)");
  }, 60_000);
});

/** The Monday (UTC) of the week holding an ISO time. */
function weekOf(iso: string): string {
  const t = Date.parse(iso);
  const day = Math.floor(t / 86_400_000);
  return new Date((day - ((((day + 3) % 7) + 7) % 7)) * 86_400_000).toISOString().slice(0, 10);
}

async function journalLines(state: string): Promise<Array<Record<string, unknown>>> {
  return (await readFile(join(state, "journal.jsonl"), "utf8"))
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}
