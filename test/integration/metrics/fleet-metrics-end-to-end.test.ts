import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runBosun } from "../../support/run-bosun.js";
import { TempRepo } from "../gate/temp-repo.js";

// The three numbers fed end to end, from events Bosun itself writes: a real drain whose worker
// reports its cost in $BOSUN_RESULT, real `bosun gate --state` runs over a real git repository,
// then `bosun stats` over the journal both wrote. Nothing here writes a journal line by hand.

const brief = (id: string, claimKey: string) => `id: ${id}
goal: Change one file under src/${id}.
constraints: {paths: [src/${id}/**]}
acceptance: {command: "true", timeout: 20s}
size_cap: 50
claim_key: ${claimKey}
`;

// The worker reports what its run cost beside its stop; gamma runs out of its token budget.
const WORKER = `case "$BOSUN_ITEM" in
  alpha) echo '{"kind":"done","cost":{"tokens":1000,"usd":0.5}}' > "$BOSUN_RESULT" ;;
  beta) echo '{"kind":"done","cost":{"tokens":2000,"usd":1.25}}' > "$BOSUN_RESULT" ;;
  gamma) echo '{"kind":"out_of_budget","limit":"tokens","cost":{"tokens":5000,"usd":2}}' > "$BOSUN_RESULT" ;;
  delta) echo '{"kind":"done","cost":{"tokens":-3,"usd":"lots"}}' > "$BOSUN_RESULT" ;;
esac
`;

let repo: TempRepo;
afterEach(() => repo.remove());

interface Stats {
  stop_mix: { runs: number; kinds: Record<string, { count: number }>; limits: Record<string, { count: number }> };
  gate_rejection_by_class: Array<{ class: string; pass: number; fail: number; rejection_rate: number | null }>;
  cost: {
    runs: number;
    accepted_tasks: number;
    landed_ok_not_gated: number;
    landed_ok_gate_not_passed: number;
    total: Record<string, number>;
    runs_missing: Record<string, number>;
    per_accepted_task: Record<string, number | null>;
  };
}

describe("the three fleet numbers from a drain, the gate and stats", () => {
  it("shows the stop mix, a rejection rate from GATE events the gate wrote, and cost per accepted (gate-passed) task", async () => {
    repo = new TempRepo();
    repo.write("briefs/alpha.yml", brief("alpha", "bugfix:alpha")).write("briefs/beta.yml", brief("beta", "feature:beta"));
    repo.write("briefs/gamma.yml", brief("gamma", "feature:gamma")).write("briefs/delta.yml", brief("delta", "task:delta"));
    repo.write(".gitignore", ".bosun/\n").write("worker.sh", WORKER).write("src/alpha/a.ts", "a\n").write("src/beta/b.ts", "b\n").commit("base");
    const state = join(repo.dir, ".bosun");

    const drain = await runBosun(["drain", "--briefs", "briefs", "--state", state, "--run", "sh worker.sh"], { cwd: repo.dir });
    expect(drain.stdout).toContain("IDLE — stop");

    // The independent record: what the drain journalled on each LAND, against what the worker wrote.
    const lands = (await journalLines(state)).filter((e) => e["event"] === "LAND");
    const costOf = (item: string) => lands.find((e) => e["item"] === item)?.["cost"] as Record<string, number> | undefined;
    expect(costOf("alpha")).toMatchObject({ tokens: 1000, usd: 0.5 });
    expect(costOf("gamma")).toMatchObject({ tokens: 5000, usd: 2 });
    for (const l of lands) expect((l["cost"] as { wall_clock_s: number }).wall_clock_s).toBeGreaterThan(0);
    // A malformed cost is not journalled as if reported; the evidence says why.
    expect(costOf("delta")).not.toHaveProperty("tokens");
    expect(costOf("delta")).not.toHaveProperty("usd");
    expect(JSON.stringify(lands.find((e) => e["item"] === "delta")?.["evidence"])).toContain("cost.tokens: must not be negative");

    // alpha's change stays inside its brief (pass); beta's touches a path outside it (fail).
    repo.git("checkout", "-q", "-b", "work-alpha");
    repo.write("src/alpha/a.ts", "a\nb\n").commit("alpha");
    repo.git("checkout", "-q", "main");
    repo.git("checkout", "-q", "-b", "work-beta");
    repo.write("src/beta/b.ts", "b\nc\n").write("src/elsewhere.ts", "x\n").commit("beta");
    repo.git("checkout", "-q", "main");
    const gateAlpha = await runBosun(["gate", "--brief", "briefs/alpha.yml", "--base", "main", "--head", "work-alpha", "--state", state], { cwd: repo.dir });
    expect(gateAlpha.code).toBe(0);
    const gateBeta = await runBosun(["gate", "--brief", "briefs/beta.yml", "--base", "main", "--head", "work-beta", "--state", state], { cwd: repo.dir });
    expect(gateBeta.code).toBe(1);

    const gates = (await journalLines(state)).filter((e) => e["event"] === "GATE");
    expect(gates.map((g) => [g["item"], g["class"], g["verdict"], g["sha"]])).toEqual([
      ["alpha", "bugfix", "pass", repo.git("rev-parse", "work-alpha").trim()],
      ["beta", "feature", "fail", repo.git("rev-parse", "work-beta").trim()],
    ]);

    const stats = await runBosun(["stats", "--journal", join(state, "journal.jsonl"), "--format", "json"], { cwd: repo.dir });
    expect(stats.code).toBe(0);
    const s = JSON.parse(stats.stdout) as Stats;
    expect(s.stop_mix.runs).toBe(4);
    expect(s.stop_mix.kinds["done"]?.count).toBe(3);
    expect(s.stop_mix.limits["tokens"]?.count).toBe(1);
    const byClass = Object.fromEntries(s.gate_rejection_by_class.map((g) => [g.class, g]));
    expect(byClass["bugfix"]).toMatchObject({ pass: 1, fail: 0, rejection_rate: 0 });
    expect(byClass["feature"]).toMatchObject({ pass: 0, fail: 1, rejection_rate: 1 });
    expect(byClass["all"]).toMatchObject({ pass: 1, fail: 1, rejection_rate: 0.5 });
    // Accepted = landed ok AND gate passed: alpha only. beta failed its gate; delta was never gated.
    expect(s.cost).toMatchObject({ runs: 4, accepted_tasks: 1, landed_ok_gate_not_passed: 1, landed_ok_not_gated: 1 });
    expect(s.cost.total["tokens"]).toBe(8000);
    expect(s.cost.runs_missing).toEqual({ tokens: 1, usd: 1, wall_clock_s: 0 });
    expect(s.cost.per_accepted_task["tokens"]).toBe(8000);
    expect(s.cost.per_accepted_task["usd"]).toBeCloseTo(3.75, 10);
    expect(s.cost.per_accepted_task["wall_clock_s"]).toBeGreaterThan(0);

    const table = await runBosun(["stats", "--journal", join(state, "journal.jsonl")], { cwd: repo.dir });
    expect(table.stdout).toMatch(/not accepted: 1 landed ok with no gate verdict yet, 1 landed ok but the gate did not pass/);
  }, 60_000);
});

async function journalLines(state: string): Promise<Array<Record<string, unknown>>> {
  return (await readFile(join(state, "journal.jsonl"), "utf8"))
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

