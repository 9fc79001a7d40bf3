import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runBosun } from "../../support/run-bosun.js";

const brief = `goal: Do one small thing.\nconstraints: {paths: [src/**]}\nacceptance: {command: "true"}\nsize_cap: 10\n`;

async function folder(names: string[]): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "bosun-summary-"));
  await mkdir(join(dir, "briefs"));
  for (const n of names) await writeFile(join(dir, "briefs", `${n}.yml`), brief);
  return dir;
}

// A worker that says what it does, fails for `bad`, and prints a terminal escape for `loud`.
const worker = `echo "working on $BOSUN_ITEM"; if [ "$BOSUN_ITEM" = bad ]; then echo "it broke" >&2; exit 3; fi; if [ "$BOSUN_ITEM" = loud ]; then printf 'x\\033[2Jy\\n'; fi`;

describe("a drain that says what happened", () => {
  it("shows each worker's output prefixed with its item, and ends with counts, logs and the next step", async () => {
    const dir = await folder(["good", "bad", "loud"]);
    const run = await runBosun(["drain", "--run", worker, "--backoff", "100ms"], { cwd: dir });
    expect(run.code).toBe(1);
    const out = run.stdout.split("\n");
    for (const item of ["good", "bad", "loud"]) expect(out).toContain(`[${item}] working on ${item}`);
    expect(out).toContain("[bad] it broke");
    expect(run.stdout).toContain("[loud] x\\x1b[2Jy");
    expect(run.stdout).not.toContain("\u001b");
    const summary = out.slice(out.indexOf("IDLE — stop") + 1).filter((l) => l !== "");
    expect(summary[0]).toBe("Summary: 3 ran, 2 ok, 0 failed, 1 needs a human.");
    expect(summary[1]).toBe("  needs a human: bad: failed/unclassified: exit 3 (log: .bosun/runs/bad.e1/output.log)");
    expect(summary).toContain("Logs: .bosun/runs/<item>.e<epoch>/output.log; journal: .bosun/journal.jsonl.");
    expect(summary.at(-1)).toMatch(/^Next: read the logs above/);
    // The log it names is where the worker's output is.
    expect(await readFile(join(dir, ".bosun/runs/bad.e1/output.log"), "utf8")).toContain("it broke");
  });

  it("a second run says each brief is already done, when, and that nothing is left to do", async () => {
    const dir = await folder(["one", "two"]);
    expect((await runBosun(["drain", "--run", "true"], { cwd: dir })).code).toBe(0);
    const journal = (await readFile(join(dir, ".bosun/journal.jsonl"), "utf8")).trim().split("\n").map((l) => JSON.parse(l) as { event: string; item?: string; t: string });
    const landedAt = (item: string) => journal.find((e) => e.event === "LAND" && e.item === item)?.t.replace(/^(\d{4}-\d\d-\d\d)T(\d\d:\d\d).*$/, "$1 $2 UTC");
    const again = await runBosun(["drain", "--run", "true"], { cwd: dir });
    expect(again.code).toBe(0);
    expect(again.stdout).not.toMatch(/DENY|not-ready/);
    for (const item of ["one", "two"]) expect(again.stdout).toContain(`${item}: already done (run ${landedAt(item)}, epoch 1); nothing to do`);
    expect(again.stdout).toContain("Summary: 0 ran, 0 ok, 0 failed, 0 need a human, 2 already done.");
    expect(again.stdout).toMatch(/^Next: nothing; add a brief/m);
  });

  it("a dry run writes nothing and says to run it for real", async () => {
    const dir = await folder(["one"]);
    const run = await runBosun(["drain", "--dry-run"], { cwd: dir });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/IDLE — stop\nSummary: 1 ran, 1 ok, 0 failed, 0 need a human\.\nNext: run them for real: bosun drain --run CMD/);
    expect(existsSync(join(dir, ".bosun"))).toBe(false);
  });

  it("--json: stdout is JSON lines, each event as the journal has it, then the summary; secrets masked; worker output on stderr", async () => {
    const dir = await folder(["good", "bad"]);
    const secret = "s3cr3t-token-value";
    const result = `if [ "$BOSUN_ITEM" = bad ]; then printf '{"kind":"failed","failure":"refuse","reason":"token %s rejected"}' "$MY_TOKEN" > "$BOSUN_RESULT"; fi; echo "out of $BOSUN_ITEM"`;
    const run = await runBosun(["drain", "--run", result, "--json"], { cwd: dir, env: { MY_TOKEN: secret } });
    expect(run.code).toBe(1);
    const lines = run.stdout.trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    const journal = (await readFile(join(dir, ".bosun/journal.jsonl"), "utf8")).trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.slice(0, -1)).toEqual(journal);
    expect(lines.at(-1)).toEqual({ summary: { ran: 2, ok: 1, failed: [{ item: "bad", summary: "failed/refuse: token *** rejected", log: ".bosun/runs/bad.e1/output.log" }], needs_human: [], blocked: [], not_claimed: [], held_by_budget: [], already_done: [], invalid: [], journal: ".bosun/journal.jsonl" } });
    expect(run.stdout).not.toContain(secret);
    expect(run.stderr).toContain("[good] out of good");
  });
});

