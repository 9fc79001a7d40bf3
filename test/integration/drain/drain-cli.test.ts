import { mkdir, mkdtemp, readFile, readdir, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { alive, readText, waitFor } from "../../support/process-waits.js";
import { runBosun, startBosun } from "../../support/run-bosun.js";

const REPO = join(import.meta.dirname, "../../..");

async function folder(briefs: Record<string, string>): Promise<{ dir: string; briefs: string; state: string }> {
  const dir = await mkdtemp(join(tmpdir(), "bosun-drain-"));
  const briefsDir = join(dir, "briefs");
  await mkdir(briefsDir);
  for (const [name, text] of Object.entries(briefs)) await writeFile(join(briefsDir, `${name}.yml`), text);
  return { dir, briefs: briefsDir, state: join(dir, "state") };
}

const brief = (extra = ""): string => `goal: Do one small thing.\nconstraints: {paths: [src/**]}\nacceptance: {command: "true"}\nsize_cap: 10\n${extra}`;

async function journal(state: string): Promise<Array<Record<string, unknown>>> {
  return (await readFile(join(state, "journal.jsonl"), "utf8"))
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe("bosun drain", () => {
  it("drains the repository's own briefs/ in a dry run and ends on IDLE", async () => {
    const run = await runBosun(["drain", "--dry-run"], { cwd: REPO });
    expect(run.code).toBe(0);
    const lines = run.stdout.trim().split("\n");
    // IDLE, then the summary (its own test: drain-summary.test.ts).
    expect(lines.filter((l) => l === "IDLE — stop")).toHaveLength(1);
    expect(lines.slice(lines.indexOf("IDLE — stop") + 1).every((l) => /^(Summary|Next): /.test(l))).toBe(true);
    const briefs = (await readdir(join(REPO, "briefs"))).filter((n) => /^[^_].*\.yml$/.test(n)).length;
    expect(lines.filter((l) => /^LAND \S+ ok=true$/.test(l))).toHaveLength(briefs);
    for (const verb of ["CLAIM", "DISPATCH", "RELEASE"]) expect(lines.filter((l) => l.startsWith(`${verb} `))).toHaveLength(briefs);
  });

  it("reports an invalid brief field by field, never claims it, runs the rest, and exits 1", async () => {
    const f = await folder({ good: brief(), bad: "goal: ''\nconstraints: {paths: []}\nsize_cap: -3\nsurprise: 1\n" });
    const run = await runBosun(["drain", "--briefs", f.briefs, "--state", f.state, "--run", "true"], { cwd: f.dir });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("bad.yml: goal: must not be empty");
    expect(run.stderr).toContain("bad.yml: constraints.paths:");
    expect(run.stderr).toContain("bad.yml: acceptance: is required");
    expect(run.stderr).toContain("bad.yml: size_cap: must be above 0");
    expect(run.stderr).toContain("bad.yml: surprise: unknown field");
    expect(run.stdout).toContain("LAND good ok=true");
    expect(run.stdout).not.toMatch(/CLAIM bad/);
  });

  it("maps worker exits and result files to stops: done, retry then done, refused, needs-human", async () => {
    const f = await folder({ ok: brief(), flaky: brief(), refused: brief(), broken: brief(), badresult: brief() });
    const worker = [
      'case "$BOSUN_ITEM" in',
      '  flaky) test "$BOSUN_EPOCH" -ge 2 || exit 75 ;;',
      '  refused) echo \'{"kind":"failed","failure":"refuse","reason":"not in scope"}\' > "$BOSUN_RESULT" ;;',
      "  broken) echo boom; exit 3 ;;",
      '  badresult) echo "{not json" > "$BOSUN_RESULT" ;;',
      "esac",
    ].join("\n");
    const run = await runBosun(["drain", "--briefs", f.briefs, "--state", f.state, "--run", worker, "--backoff", "0s"], { cwd: f.dir });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^LAND ok ok=true$/m);
    expect(run.stdout).toMatch(/^LAND flaky ok=false {2}failed\/retry -> retry/m);
    expect(run.stdout).toMatch(/^LAND flaky ok=true$/m);
    expect(run.stdout).toMatch(/^LAND refused ok=false {2}failed\/refuse -> refuse: not in scope$/m);
    expect(run.stdout).toMatch(/^LAND broken ok=false {2}failed\/unclassified -> human: exit 3$/m);
    expect(run.stdout).toMatch(/^LAND badresult ok=false {2}failed\/unclassified -> human: result file is not a valid stop/m);
    const lands = (await journal(f.state)).filter((e) => e.event === "LAND" && e.item === "broken");
    expect(lands).toMatchObject([{ evidence: { command: worker, exit: 3, lines: ["boom"] }, failure: "unclassified" }]);
  });

  it("kills the worker's process group when the wall-clock budget runs out", async () => {
    const f = await folder({ slow: brief("budget: {wall_clock: 1s}\n") });
    const pidFile = join(f.dir, "grandchild.pid");
    const run = await runBosun(["drain", "--briefs", f.briefs, "--state", f.state, "--run", `sleep 30 & echo $! > ${pidFile}; wait`], { cwd: f.dir });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^LAND slow ok=false {2}out_of_budget\/wall_clock -> human/m);
    const grandchild = Number(await readFile(pidFile, "utf8"));
    await waitFor(() => !alive(grandchild));
  });

  it("never writes a secret from the environment into the journal or the logs", async () => {
    const f = await folder({ leaky: brief() });
    const secret = "s3cr3t-value-that-must-not-leak";
    const run = await runBosun(["drain", "--briefs", f.briefs, "--state", f.state, "--run", 'echo "token is $MY_API_TOKEN"; exit 1'], { cwd: f.dir, env: { MY_API_TOKEN: secret } });
    expect(run.code).toBe(1);
    const all = [await readFile(join(f.state, "journal.jsonl"), "utf8"), await readFile(join(f.state, "runs", "leaky.e1", "output.log"), "utf8"), run.stdout, run.stderr].join("\n");
    expect(all).toContain("token is ***");
    expect(all).not.toContain(secret);
  });

  // Seen failing before the fix: the parser's message quoted the text it read ("sk-live-012"...),
  // a prefix of the secret that masking (which matches the whole value) let through everywhere.
  it("a result file that is not JSON is not quoted back: no piece of a secret in it reaches the stop", async () => {
    const f = await folder({ garbled: brief(), unended: brief() });
    const secret = "sk-live-0123456789-abcdefghij-klmnop";
    const worker = 'if [ "$BOSUN_ITEM" = garbled ]; then printf "%s is my key" "$MY_API_KEY"; else printf \'{"kind":"failed","reason":%s\' "$MY_API_KEY"; fi > "$BOSUN_RESULT"; exit 1';
    const run = await runBosun(["drain", "--briefs", f.briefs, "--state", f.state, "--run", worker], { cwd: f.dir, env: { MY_API_KEY: secret } });
    expect(run.code).toBe(1);
    const written = [await readFile(join(f.state, "journal.jsonl"), "utf8"), await readFile(join(f.state, "results", "garbled.json"), "utf8"), await readFile(join(f.state, "results", "unended.json"), "utf8"), run.stdout, run.stderr].join("\n");
    expect(written).toContain("result file is not a valid stop: not JSON");
    expect(written).not.toContain(secret.slice(0, 8));
  });

  // Seen failing before the fix: the spawner's decoder was never ended, so a last incomplete
  // UTF-8 sequence was dropped and output.log ended at "tail" as if nothing more was written.
  it("a worker's output that ends inside a character keeps its last bytes in the log (as U+FFFD)", async () => {
    const f = await folder({ binary: brief() });
    const run = await runBosun(["drain", "--briefs", f.briefs, "--state", f.state, "--run", "printf 'tail\\342\\202'"], { cwd: f.dir });
    expect(run.code).toBe(0);
    expect(await readFile(join(f.state, "runs", "binary.e1", "output.log"), "utf8")).toMatch(/^tail\uFFFD/);
  });

  it("two drains started together on one state folder run each item exactly once, and both judge the whole folder", async () => {
    for (let round = 0; round < 3; round++) {
      const names = Array.from({ length: 12 }, (_, i) => `item-${round}-${i}`);
      const f = await folder(Object.fromEntries(names.map((n) => [n, brief()])));
      const log = join(f.dir, "runs.log");
      const worker = `echo "start $BOSUN_ITEM $BOSUN_EPOCH" >> ${log}; sleep 0.$(( RANDOM % 3 + 1 )) 2>/dev/null || sleep 0.2; echo "end $BOSUN_ITEM" >> ${log}`;
      const args = ["drain", "--briefs", f.briefs, "--state", f.state, "--pool", "3", "--run", worker];
      const [a, b] = await Promise.all([runBosun(args, { cwd: f.dir }), runBosun(args, { cwd: f.dir })]);
      expect([a.code, b.code]).toEqual([0, 0]);
      const starts = (await readFile(log, "utf8")).split("\n").filter((l) => l.startsWith("start "));
      expect(starts.map((l) => l.split(" ")[1]).sort()).toEqual([...names].sort());
      expect(a.stdout).toMatch(/^IDLE — stop\nSummary: /m);
      expect(b.stdout).toMatch(/^IDLE — stop\nSummary: /m);
    }
  });

  it("after its holder is killed with SIGKILL, the worker dies too and another drain reclaims the item once the lease ends", async () => {
    const f = await folder({ orphan: brief() });
    const pidFile = join(f.dir, "worker.pid");
    const first = startBosun(["drain", "--briefs", f.briefs, "--state", f.state, "--lease", "2s", "--run", `echo $$ > ${pidFile}; sleep 30`], { cwd: f.dir });
    await waitFor(() => existsSync(pidFile) && readText(pidFile) !== "");
    const worker = Number(readText(pidFile));
    first.child.kill("SIGKILL");
    await first.done;
    await waitFor(() => !alive(worker));
    const second = await runBosun(["drain", "--briefs", f.briefs, "--state", f.state, "--lease", "2s", "--run", "true"], { cwd: f.dir });
    expect(second.code, second.stdout + second.stderr).toBe(0);
    expect(second.stdout).toMatch(/^RECLAIM orphan {2}from drain-/m);
    expect(second.stdout).toMatch(/^LAND orphan ok=true$/m);
    const events = await journal(f.state);
    // The item was reclaimed only once the dead holder's lease had run out.
    const claimed = Date.parse(String(events.find((e) => e.event === "CLAIM")?.t));
    const reclaimed = Date.parse(String(events.find((e) => e.event === "RECLAIM")?.t));
    // (The CLAIM line is stamped a moment after the lease starts, hence the few ms of slack.)
    expect(reclaimed - claimed).toBeGreaterThanOrEqual(2000 - 50);
    expect(events.filter((e) => e.event === "DISPATCH").map((e) => e.epoch), JSON.stringify(events)).toEqual([1, 2]);
  });

  it("Ctrl-C stops the workers and releases their items at once: the next drain takes them without waiting for the lease", async () => {
    const f = await folder({ long: brief() });
    const pidFile = join(f.dir, "worker.pid");
    const first = startBosun(["drain", "--briefs", f.briefs, "--state", f.state, "--lease", "10m", "--run", `echo $$ > ${pidFile}; sleep 30`], { cwd: f.dir });
    await waitFor(() => existsSync(pidFile) && readText(pidFile) !== "");
    const worker = Number(readText(pidFile));
    first.child.kill("SIGINT");
    const stopped = await first.done;
    expect(stopped.code, stopped.stderr).toBe(130);
    expect(stopped.stderr).toContain("interrupted (SIGINT)");
    await waitFor(() => !alive(worker));
    expect(stopped.stdout).toMatch(/^LAND long ok=false {2}failed\/retry -> retry: interrupted/m);
    expect(stopped.stdout).not.toContain("IDLE");
    // A 10-minute lease, yet the next drain runs the item straight away.
    const second = await runBosun(["drain", "--briefs", f.briefs, "--state", f.state, "--run", "true"], { cwd: f.dir });
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toMatch(/^LAND long ok=true$/m);
  });
});

