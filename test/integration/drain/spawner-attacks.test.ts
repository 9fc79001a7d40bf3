import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { alive, readPid, readText, waitFor } from "../../support/process-waits.js";
import { runShell } from "../../../src/adapters/local/run-shell.js";
import { runBosun, startBosun } from "../../support/run-bosun.js";

// Attacks on the worker spawner (src/adapters/local/worker-spawner.ts) and on what the drain
// promises around it: no worker outlives its claim's holder, no run hangs, output is whole and
// masked, Ctrl-C releases, and every landed item has its result file. Each was run against the
// code before its fix and seen failing, unless its comment says it held.

/** Field N (1-based, after the command) of a process's /proc stat line: 2 is its parent. */
const statField = (pid: number, n: number): number => Number(readFileSync(`/proc/${pid}/stat`, "utf8").replace(/^.*\) /s, "").split(" ")[n - 1]);
/** The children of `pid`, from /proc. */
function childrenOf(pid: number): number[] {
  return readdirSync("/proc")
    .filter((n) => /^\d+$/.test(n))
    .map(Number)
    .filter((p) => {
      try {
        return statField(p, 2) === pid;
      } catch {
        return false;
      }
    });
}
const cmdline = (pid: number): string => readText(`/proc/${pid}/cmdline`).replace(/\0/g, " ");

const brief = (extra = ""): string => `goal: Do one small thing.\nconstraints: {paths: [src/**]}\nacceptance: {command: "true"}\nsize_cap: 10\n${extra}`;

async function folder(names: readonly string[], extra = ""): Promise<{ dir: string; briefs: string; state: string }> {
  const dir = await mkdtemp(join(tmpdir(), "bosun-attack-"));
  const briefs = join(dir, "briefs");
  await mkdir(briefs);
  for (const name of names) await writeFile(join(briefs, `${name}.yml`), brief(extra));
  return { dir, briefs, state: join(dir, "state") };
}

const journal = (state: string): Array<Record<string, unknown>> =>
  readText(join(state, "journal.jsonl"))
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);

const PATH = { PATH: process.env.PATH };

describe("attacks on the worker spawner", () => {
  it("the tail holds the output that arrived after the shell exited (a background child still writing)", async () => {
    // The shell exits at once; its child writes once the shell is gone, well inside the output grace.
    const command = "(while kill -0 $$ 2>/dev/null; do sleep 0.02; done; echo late) & echo early";
    for (const dieWithParent of [false, true]) {
      const run = await runShell({ command, cwd: tmpdir(), env: PATH, dieWithParent });
      expect({ dieWithParent, exit: run.exit, tail: run.tail }).toEqual({ dieWithParent, exit: 0, tail: ["early", "late"] });
    }
  });

  it("a shell that exits 0 before its timeout is judged on its exit, though its timeout passes in the output grace", async () => {
    // The background child holds the output open past the timeout: the timeout fires after the exit.
    for (const dieWithParent of [false, true]) {
      const run = await runShell({ command: "sleep 5 & echo hi", cwd: tmpdir(), env: PATH, timeoutMs: 100, dieWithParent });
      expect({ dieWithParent, exit: run.exit, killedFor: run.killedFor, tail: run.tail }).toEqual({ dieWithParent, exit: 0, killedFor: undefined, tail: ["hi"] });
    }
  });

  it("a command that cannot start (its folder is gone) ends with a clear error, not a hang", async () => {
    const gone = join(tmpdir(), "bosun-no-such-folder-at-all");
    for (const dieWithParent of [true, false]) {
      const run = await runShell({ command: "echo never", cwd: gone, env: PATH, dieWithParent });
      expect(run.exit).toBeNull();
      expect(run.error).toBe(`could not start /bin/sh: spawn /bin/sh ENOENT (the working folder ${gone} does not exist)`);
    }
    // Past the kernel's limit on one argument: spawn throws rather than emits, on either path.
    for (const dieWithParent of [true, false]) {
      const huge = await runShell({ command: `echo ${"x".repeat(300_000)}`, cwd: tmpdir(), env: PATH, dieWithParent });
      expect({ dieWithParent, error: huge.error }).toEqual({ dieWithParent, error: "could not start /bin/sh: spawn E2BIG" });
    }
    // And the spawner still serves the next run.
    expect(await runShell({ command: "echo next", cwd: tmpdir(), env: PATH, dieWithParent: true })).toMatchObject({ exit: 0, tail: ["next"] });
  });

  it("a worker that closes its output early and keeps running is ended by its timeout", async () => {
    const run = await runShell({ command: "echo bye; exec >&- 2>&-; sleep 30", cwd: tmpdir(), env: PATH, timeoutMs: 300, dieWithParent: true });
    expect(run).toMatchObject({ killedFor: "timeout", signal: "SIGTERM", tail: ["bye"] });
  });

  // GNU `timeout` (a common wrapper for an agent) puts the real work in a process group of its
  // own, inside the worker's session: a signal to the worker's group alone missed it.
  const ESCAPES: Array<[string, (pidFile: string) => string]> = [["GNU timeout", (pidFile) => `timeout 30 sh -c 'echo $$ > ${pidFile}; sleep 30'; echo done`]];
  for (const [name, command] of ESCAPES) {
    it(`a process group the worker makes (${name}) dies at the worker's timeout, and when its drain is SIGKILLed`, async () => {
      const dir = await mkdtemp(join(tmpdir(), "bosun-attack-"));
      const pidFile = join(dir, "inner.pid");
      const run = await runShell({ command: `${command(pidFile)}`, cwd: dir, env: PATH, timeoutMs: 400, dieWithParent: true });
      expect(run.killedFor).toBe("timeout");
      await waitFor(() => !alive(readPid(pidFile)));

      const f = await folder(["escape"]);
      const drainPid = join(f.dir, "drain-inner.pid");
      const drain = startBosun(["drain", "--briefs", f.briefs, "--state", f.state, "--run", command(drainPid)], { cwd: f.dir });
      await waitFor(() => Number.isFinite(readPid(drainPid)));
      const inner = readPid(drainPid);
      // Field 3 is its group, 4 its session: a group of its own, not the worker's (the session's).
      expect(statField(inner, 3)).not.toBe(statField(inner, 4));
      drain.child.kill("SIGKILL");
      await drain.done;
      await waitFor(() => !alive(readPid(drainPid)));
    });
  }

  it("when the guard is killed first and then the spawner, the worker still dies", async () => {
    const dir = await mkdtemp(join(tmpdir(), "bosun-attack-"));
    const pidFile = join(dir, "worker.pid");
    const run = runShell({ command: `echo $$ > ${pidFile}; exec sleep 30`, cwd: dir, env: PATH, timeoutMs: 20_000, dieWithParent: true });
    await waitFor(() => Number.isFinite(readPid(pidFile)));
    const worker = readPid(pidFile);
    const spawner = statField(worker, 2);
    expect(cmdline(spawner)).toContain("-e");
    const guards = childrenOf(spawner).filter((p) => p !== worker && cmdline(p).startsWith("/bin/sh -c live="));
    expect(guards).toHaveLength(1);
    process.kill(guards[0] as number, "SIGKILL");
    // The spawner replaces its guard; once there is one again (or after 2 s, if it never comes), the spawner goes too.
    // A new guard counts once it runs sh: before its exec it is a copy of the spawner.
    const replaced = (): boolean => childrenOf(spawner).some((p) => p !== guards[0] && p !== worker && cmdline(p).startsWith("/bin/sh -c live="));
    await waitFor(replaced, 2000).catch(() => undefined);
    // The spawner tells the new guard of every live group in the tick its spawn returns, just after that exec.
    await new Promise((r) => setTimeout(r, 100));
    process.kill(spawner, "SIGKILL");
    expect((await run).error).toMatch(/the worker spawner was ended by SIGKILL/);
    await waitFor(() => !alive(worker));
  });

  it("a spawner that stops answering (SIGSTOP) cannot hang a timed-out run: it is killed, and its guard kills the worker", async () => {
    const dir = await mkdtemp(join(tmpdir(), "bosun-attack-"));
    const pidFile = join(dir, "worker.pid");
    // Stopped by its signal once the spawner is stopped (a timeout could fire before a busy machine started it).
    const stop = new AbortController();
    const run = runShell({ command: `echo $$ > ${pidFile}; exec sleep 30`, cwd: dir, env: PATH, signal: stop.signal, dieWithParent: true });
    await waitFor(() => Number.isFinite(readPid(pidFile)));
    const worker = readPid(pidFile);
    const spawner = statField(worker, 2);
    // As a worker's `kill -STOP $PPID` would: the spawner hears nothing, the SIGTERM and SIGKILL included.
    process.kill(spawner, "SIGSTOP");
    stop.abort();
    try {
      const ended = await run;
      expect(ended.killedFor).toBe("aborted");
      expect(ended.error).toMatch(/the worker spawner did not answer/);
      await waitFor(() => !alive(worker));
    } finally {
      if (alive(spawner)) process.kill(spawner, "SIGKILL");
    }
  }, 120_000);

  it("a worker writing as fast as it can, read by a slow drain, does not grow the spawner without bound", async () => {
    const dir = await mkdtemp(join(tmpdir(), "bosun-attack-"));
    const pidFile = join(dir, "worker.pid");
    const rssMb = (pid: number): number => Number(/VmRSS:\s+(\d+)/.exec(readText(`/proc/${pid}/status`))?.[1] ?? 0) / 1024;
    let most = 0;
    let spawner = 0;
    const watch = setInterval(() => {
      if (spawner === 0 && Number.isFinite(readPid(pidFile))) spawner = statField(readPid(pidFile), 2);
      if (spawner !== 0) most = Math.max(most, rssMb(spawner));
    }, 20);
    // The drain's side costs half a millisecond a chunk (masking, the log), far below what `yes` writes.
    const slow = (): void => {
      const start = performance.now();
      while (performance.now() - start < 0.5);
    };
    const run = await runShell({ command: `echo $$ > ${pidFile}; exec yes aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa`, cwd: dir, env: PATH, timeoutMs: 1500, dieWithParent: true, onOutput: slow });
    clearInterval(watch);
    expect(run.killedFor).toBe("timeout");
    expect(spawner).not.toBe(0);
    // A node process is some 50 MB; unpaused, this one passed 400 MB in the same time.
    expect(most).toBeLessThan(200);
  });

  it("when the spawner dies in the middle of a flood of output, the run ends with a reason", async () => {
    const dir = await mkdtemp(join(tmpdir(), "bosun-attack-"));
    const pidFile = join(dir, "worker.pid");
    let seen = 0;
    const run = runShell({ command: `echo $$ > ${pidFile}; exec yes flood`, cwd: dir, env: PATH, timeoutMs: 20_000, dieWithParent: true, onOutput: (c) => (seen += c.length) });
    await waitFor(() => seen > 1_000_000);
    const worker = readPid(pidFile);
    process.kill(statField(worker, 2), "SIGKILL");
    expect((await run).error).toMatch(/the worker spawner was ended by SIGKILL/);
    await waitFor(() => !alive(worker));
  });
});

describe("attacks on the drain around the spawner", () => {
  it("masks a secret that the worker writes in two pieces (two pipe reads)", async () => {
    const f = await folder(["leaky"]);
    const secret = "s3cr3t-value-split-across-two-writes";
    // Half, a pause (so the halves arrive as two chunks), the other half.
    const worker = 'printf "key=%s" "$(printf %s "$MY_API_TOKEN" | cut -c1-12)"; sleep 0.3; printf "%s\\n" "$(printf %s "$MY_API_TOKEN" | cut -c13-)"; exit 1';
    const run = await runBosun(["drain", "--briefs", f.briefs, "--state", f.state, "--run", worker], { cwd: f.dir, env: { MY_API_TOKEN: secret } });
    expect(run.code).toBe(1);
    const log = await readFile(join(f.state, "runs", "leaky.e1", "output.log"), "utf8");
    const all = [readText(join(f.state, "journal.jsonl")), log, readText(join(f.state, "results", "leaky.json")), run.stdout, run.stderr].join("\n");
    expect(log).toContain("key=***");
    expect(all).not.toContain(secret);
    expect(all).not.toContain(secret.slice(0, 12));
    expect(all).not.toContain(secret.slice(12));
  });

  it("masks a multi-line secret (a private key) in the evidence of the journal and the result file too", async () => {
    const f = await folder(["pem"]);
    const key = ["-----BEGIN PRIVATE KEY-----", "MIIBVQIBADANBgkqhkiG9w0BAQEFAASCAT8wggE7AgEAAkEAq7BFUpkGp3+XQ", "kL8v2ZQYb5pzTq3ZrWmCkY1lJ6QhQjNnDzW8x7s0Hh1+o6zQeA1n2kq4cQ9c4", "-----END PRIVATE KEY-----"].join("\n");
    const run = await runBosun(["drain", "--briefs", f.briefs, "--state", f.state, "--run", 'echo before; printf "%s\n" "$MY_PRIVATE_KEY"; echo after; exit 1'], { cwd: f.dir, env: { MY_PRIVATE_KEY: key } });
    expect(run.code).toBe(1);
    const result = readText(join(f.state, "results", "pem.json"));
    expect(result).toContain("before");
    const all = [readText(join(f.state, "journal.jsonl")), readText(join(f.state, "runs", "pem.e1", "output.log")), result, run.stdout, run.stderr].join("\n");
    for (const line of key.split("\n").slice(1, 3)) expect(all).not.toContain(line);
  });

  it("a worker's line appears in the live output while the worker still runs, not at its end", async () => {
    const f = await folder(["chatty"]);
    const go = join(f.dir, "go");
    const drain = startBosun(["drain", "--briefs", f.briefs, "--state", f.state, "--run", `echo "first line"; while ! test -e ${go}; do sleep 0.05; done`], { cwd: f.dir });
    let seen = "";
    drain.child.stdout?.on("data", (b: Buffer) => (seen += b.toString()));
    try {
      await waitFor(() => seen.includes("[chatty] first line"));
    } finally {
      await writeFile(go, "");
    }
    expect((await drain.done).code).toBe(0);
  });

  it("64 workers at once, each writing a megabyte: every output log is whole and in order", async () => {
    const names = Array.from({ length: 64 }, (_, i) => `big-${i}`);
    const f = await folder(names);
    // Numbered lines, so a lost or reordered piece shows; then a last line written after a pause.
    const worker = 'seq -f "$BOSUN_ITEM %06g" 1 40000; echo "END $BOSUN_ITEM"';
    const run = await runBosun(["drain", "--briefs", f.briefs, "--state", f.state, "--pool", "64", "--quiet", "--run", worker], { cwd: f.dir });
    expect(run.code, run.stderr).toBe(0);
    for (const name of names) {
      const lines = readFileSync(join(f.state, "runs", `${name}.e1`, "output.log"), "utf8").split("\n");
      expect(lines.length, name).toBe(40_002);
      expect(lines[39_999]).toBe(`${name} 040000`);
      expect(lines[40_000]).toBe(`END ${name}`);
      const result = JSON.parse(readFileSync(join(f.state, "results", `${name}.json`), "utf8")) as { evidence: { lines: string[] } };
      expect(result.evidence.lines.at(-1)).toBe(`END ${name}`);
    }
  }, 180_000);

  it("Ctrl-C to the whole foreground group: workers get SIGTERM, items are released with their result files, exit 130", async () => {
    const names = ["one", "two", "three"];
    const f = await folder(names);
    const worker = `trap 'echo "$BOSUN_ITEM" >> ${join("..", "termed.log")}; exit 143' TERM; echo "$$" > "$BOSUN_ITEM.pid"; while :; do sleep 0.05; done`;
    const work = join(f.dir, "work");
    await mkdir(work);
    const drain = startBosun(["drain", "--briefs", f.briefs, "--state", f.state, "--lease", "10m", "--pool", "3", "--run", worker], { cwd: work, detached: true });
    await waitFor(() => names.every((n) => Number.isFinite(readPid(join(work, `${n}.pid`)))));
    // As a terminal does: SIGINT to every process of the foreground group.
    process.kill(-(drain.child.pid as number), "SIGINT");
    const stopped = await drain.done;
    expect(stopped.code, stopped.stderr).toBe(130);
    for (const n of names) await waitFor(() => !alive(readPid(join(work, `${n}.pid`))));
    expect(readText(join(f.dir, "termed.log")).split("\n").sort()).toEqual([...names].sort());
    const landed = journal(f.state).filter((e) => e.event === "LAND").map((e) => e.item);
    expect([...landed].sort()).toEqual([...names].sort());
    for (const n of names) expect(existsSync(join(f.state, "results", `${n}.json`)), n).toBe(true);
    const second = await runBosun(["drain", "--briefs", f.briefs, "--state", f.state, "--run", "true"], { cwd: f.dir });
    expect(second.code, second.stderr).toBe(0);
    for (const n of names) expect(second.stdout).toMatch(new RegExp(`^LAND ${n} ok=true$`, "m"));
  });

  it("a drain that ends on a fault (its briefs folder removed) leaves a result file for every landed item", async () => {
    const names = Array.from({ length: 8 }, (_, i) => `f-${i}`);
    const f = await folder(names);
    const worker = `test "$BOSUN_ITEM" = f-3 && rm -rf ${f.briefs}; exit 0`;
    const run = await runBosun(["drain", "--briefs", f.briefs, "--state", f.state, "--run", worker], { cwd: f.dir });
    expect(run.code).toBe(1);
    const landed = journal(f.state).filter((e) => e.event === "LAND").map((e) => e.item as string);
    expect(landed.length).toBeGreaterThan(0);
    for (const n of landed) expect(existsSync(join(f.state, "results", `${n}.json`)), n).toBe(true);
  });

  it("two drains with pool 16 on one state folder and 200 briefs: the workers' own log shows each brief ran once", async () => {
    const names = Array.from({ length: 200 }, (_, i) => `two-${String(i).padStart(3, "0")}`);
    const f = await folder(names);
    const log = join(f.dir, "runs.log");
    // One short line per start, appended whole (O_APPEND, under PIPE_BUF).
    const worker = `echo "start $BOSUN_ITEM $BOSUN_EPOCH $PPID" >> ${log}`;
    const args = ["drain", "--briefs", f.briefs, "--state", f.state, "--pool", "16", "--quiet", "--run", worker];
    const [a, b] = await Promise.all([runBosun(args, { cwd: f.dir }), runBosun(args, { cwd: f.dir })]);
    expect([a.code, b.code], a.stderr + b.stderr).toEqual([0, 0]);
    const started = readText(log).split("\n").map((l) => l.split(" ")[1]);
    expect(started.sort()).toEqual(names);
    for (const n of names) expect(existsSync(join(f.state, "results", `${n}.json`)), n).toBe(true);
  }, 180_000);
});
