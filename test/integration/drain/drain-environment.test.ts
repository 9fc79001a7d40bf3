/**
 * The drain survives its environment: unreadable entries, a briefs folder or a state folder that
 * vanishes, a full disk, a FIFO as a result file, a worker that leaves a child holding stdout, a
 * brief removed mid-drain. Judged from independent evidence: what the workers left outside the
 * state folder, the claim files on disk, the exit code — never Bosun's own summary alone.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runBosun } from "../../support/run-bosun.js";

const brief = (extra = ""): string => `goal: Do one small thing.\nconstraints: {paths: [src/**]}\nacceptance: {command: "true"}\nsize_cap: 10\n${extra}`;

async function folder(briefs: Record<string, string>, stateDir?: string): Promise<{ dir: string; briefs: string; state: string; ran: string }> {
  const dir = await mkdtemp(join(tmpdir(), "bosun-drain-env-"));
  const briefsDir = join(dir, "briefs");
  await mkdir(briefsDir);
  for (const [name, text] of Object.entries(briefs)) await writeFile(join(briefsDir, `${name}.yml`), text);
  return { dir, briefs: briefsDir, state: stateDir ?? join(dir, "state"), ran: join(dir, "ran.log") };
}

/** Worker runs as the workers themselves recorded them, outside the state folder. */
async function ran(f: { ran: string }): Promise<string[]> {
  return existsSync(f.ran) ? (await readFile(f.ran, "utf8")).trim().split("\n").filter((l) => l !== "") : [];
}

/** Live claim files left in the state folder: a released claim leaves none. */
async function liveClaims(state: string): Promise<string[]> {
  const root = join(state, "claims");
  if (!existsSync(root)) return [];
  const live: string[] = [];
  for (const key of await readdir(root)) if (existsSync(join(root, key, "claim"))) live.push(decodeURIComponent(key));
  return live;
}

const record = (f: { ran: string }): string => `echo "$BOSUN_ITEM" >> ${f.ran}`;

describe("bosun drain in a hostile environment", () => {
  it("reports a symlink loop, a folder named sub.yml and a FIFO, skips them, and runs the valid briefs", async () => {
    const f = await folder({ a: brief(), b: brief() });
    await symlink("loop.yml", join(f.briefs, "loop.yml"));
    await mkdir(join(f.briefs, "sub.yml"));
    execFileSync("mkfifo", [join(f.briefs, "pipe.yml")]);
    const run = await runBosun(["drain", "--briefs", f.briefs, "--state", f.state, "--run", record(f)], { cwd: f.dir });
    expect(run.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect((await ran(f)).sort()).toEqual(["a", "b"]);
    expect(run.stderr).toMatch(/loop\.yml: \(file\): cannot read: ELOOP \(a symbolic link loop\)/);
    expect(run.stderr).toMatch(/sub\.yml: \(file\): cannot read: (EISDIR|a folder)/);
    expect(run.stderr).toMatch(/pipe\.yml: \(file\): cannot read: a FIFO, not a regular file/);
    expect(run.code).toBe(1);
  });

  it("a FIFO, a folder or a link to a device at $BOSUN_RESULT is refused as a result, never read: the drain ends", async () => {
    const f = await folder({ fifo: brief(), dir: brief(), dev: brief(), after: brief() });
    const worker = [
      record(f),
      'case "$BOSUN_ITEM" in',
      '  fifo) mkfifo "$BOSUN_RESULT" ;;',
      '  dir) mkdir "$BOSUN_RESULT" ;;',
      '  dev) ln -s /dev/zero "$BOSUN_RESULT" ;;',
      "esac",
    ].join("\n");
    const run = await runBosun(["drain", "--briefs", f.briefs, "--state", f.state, "--pool", "1", "--run", worker], { cwd: f.dir });
    expect(run.stdout).toMatch(/^LAND fifo ok=false {2}failed\/unclassified -> human: result file is not a valid stop: a FIFO, not a regular file$/m);
    expect(run.stdout).toMatch(/^LAND dir ok=false {2}failed\/unclassified -> human: result file is not a valid stop: a folder, not a regular file$/m);
    expect(run.stdout).toMatch(/^LAND dev ok=false {2}failed\/unclassified -> human: result file is not a valid stop: a symbolic link, not a regular file$/m);
    expect(run.stdout).toMatch(/^LAND after ok=true$/m);
    expect(run.code).toBe(1);
  });

  it("a command that exits 0 but leaves a child holding stdout is judged on its exit, not on the child", async () => {
    const f = await folder({ lingering: brief("budget: {wall_clock: 20s}\n") });
    const run = await runBosun(["drain", "--briefs", f.briefs, "--state", f.state, "--run", `${record(f)}; sleep 60 & exit 0`], { cwd: f.dir });
    expect(run.stdout).toMatch(/^LAND lingering ok=true$/m);
    expect(run.stdout).not.toMatch(/out_of_budget/);
    expect(run.code).toBe(0);
  });

  it("a brief removed from the folder mid-drain is not run", async () => {
    const f = await folder({ a1: brief("priority: 0\n"), b2: brief("priority: 4\n") });
    const worker = `${record(f)}; rm -f ${join(f.briefs, "b2.yml")}`;
    const run = await runBosun(["drain", "--briefs", f.briefs, "--state", f.state, "--pool", "1", "--run", worker], { cwd: f.dir });
    expect(await ran(f)).toEqual(["a1"]);
    expect(run.stderr).toMatch(/b2: removed from the briefs folder before it ran: not run/);
    expect(await liveClaims(f.state)).toEqual([]);
    // The journal says what happened: b2 was never dispatched, and it landed refused.
    const events = (await readFile(join(f.state, "journal.jsonl"), "utf8")).trim().split("\n").map((l) => JSON.parse(l) as { event: string; item?: string; ok?: boolean });
    expect(events.filter((e) => e.item === "b2").map((e) => e.event)).not.toContain("DISPATCH");
    expect(events.find((e) => e.item === "b2" && e.event === "LAND")?.ok).toBe(false);
    expect(run.stdout).not.toMatch(/^DISPATCH b2$/m);
  });

  it("a briefs folder that vanishes mid-drain ends the drain: a clear message, claims released, exit 1", async () => {
    const f = await folder({ a1: brief("priority: 0\n"), b2: brief("priority: 4\n"), c3: brief("priority: 4\n") });
    const worker = `${record(f)}; rm -rf ${f.briefs}`;
    const run = await runBosun(["drain", "--briefs", f.briefs, "--state", f.state, "--pool", "1", "--run", worker], { cwd: f.dir });
    expect(run.stderr).not.toMatch(/\n\s+at |ENOENT: no such file/);
    expect(await ran(f)).toEqual(["a1"]);
    expect(run.stderr).toMatch(/bosun drain: stopped: the briefs folder .* cannot be read \(ENOENT: it is gone\)/);
    expect(await liveClaims(f.state)).toEqual([]);
    expect(run.code).toBe(1);
  });

  it("a worker that deletes the state folder is not run again without limit: the drain stops", async () => {
    const f = await folder({ wiper: brief() });
    const run = await runBosun(["drain", "--briefs", f.briefs, "--state", f.state, "--run", `${record(f)}; rm -rf ${f.state}; exit 75`, "--backoff", "0s"], { cwd: f.dir });
    expect(await ran(f)).toEqual(["wiper"]);
    expect(run.stderr).toMatch(/the state folder .* vanished while wiper ran/);
    expect(run.code).toBe(1);
  });
});

/** A 1 MB tmpfs when this process may mount one (root in a container), else undefined. */
function mountTinyDisk(): string | undefined {
  if (process.getuid?.() !== 0 || process.env.BOSUN_TEST_NO_TMPFS === "1") return undefined;
  const dir = execFileSync("mktemp", ["-d", join(tmpdir(), "bosun-enospc-XXXXXX")], { encoding: "utf8" }).trim();
  const mounted = spawnSync("mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", dir]);
  return mounted.status === 0 ? dir : undefined;
}

describe("a full disk under the state folder", () => {
  const disk = mountTinyDisk();
  afterAll(() => {
    if (disk !== undefined) spawnSync("umount", [disk]);
  });

  it(`ends the drain cleanly: claims released, a clear message, exit 1 (${disk === undefined ? "injected ENOSPC" : "a real 1 MB tmpfs"})`, async () => {
    const names = ["a1", "b2", "c3", "d4"];
    const f = await folder(Object.fromEntries(names.map((n) => [n, brief()])), disk === undefined ? undefined : join(disk, "state"));
    const flag = join(f.dir, "disk-is-full");
    // The first worker fills the disk (really, on tmpfs; by raising the flag otherwise).
    const fill = disk === undefined ? `touch ${flag}` : `head -c 2000000 /dev/zero > ${join(disk, "filler")} 2>/dev/null; true`;
    const worker = `${record(f)}; if [ "$BOSUN_ITEM" = a1 ]; then ${fill}; fi`;
    const env: Record<string, string> =
      disk === undefined
        ? { NODE_OPTIONS: `--import ${join(import.meta.dirname, "enospc-preload.mjs")}`, BOSUN_TEST_ENOSPC_DIR: f.state, BOSUN_TEST_ENOSPC_FLAG: flag }
        : {};
    const run = await runBosun(["drain", "--briefs", f.briefs, "--state", f.state, "--pool", "1", "--run", worker], { cwd: f.dir, env });
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.stderr).toMatch(/bosun drain: stopped: .*ENOSPC/);
    expect(await liveClaims(f.state)).toEqual([]);
    expect((await ran(f)).length).toBeLessThan(names.length);
    expect(run.code).toBe(1);
  });
});
