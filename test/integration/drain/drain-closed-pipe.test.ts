import { spawn } from "node:child_process";
import { mkdir, mkdtemp, readFile, readdir, writeFile } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// The process entry the tests run: the same wrapper bin/bosun.js calls, from source.
const CLI = fileURLToPath(new URL("../../support/bosun-cli.ts", import.meta.url));
const TSX = new URL("../../../node_modules/tsx/dist/loader.mjs", import.meta.url).href;
const ENTRY = process.env.BOSUN_PIPE_TEST_ENTRY ?? CLI;

const brief = `goal: Do one small thing.\nconstraints: {paths: [src/**]}\nacceptance: {command: "true"}\nsize_cap: 10\n`;

/**
 * `bosun drain ... | head -1`: reads the first line of the drain's stdout, then closes the pipe, as
 * `head` does. Returns the exit code once the drain process ends (or is killed after 20 s).
 */
async function drainIntoClosedPipe(args: readonly string[], cwd: string): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ["--import", TSX, ENTRY, ...args], { cwd, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (b: Buffer) => (stderr += b.toString()));
  child.stdout.once("data", () => child.stdout.destroy());
  const guard = setTimeout(() => child.kill("SIGKILL"), 20_000);
  const code = await new Promise<number | null>((resolve) => child.on("close", (c) => resolve(c)));
  clearTimeout(guard);
  return { code, stderr };
}

async function folder(names: readonly string[], failing: readonly string[] = []): Promise<{ dir: string; briefs: string; state: string; ran: string }> {
  const dir = await mkdtemp(join(tmpdir(), "bosun-pipe-"));
  const briefs = join(dir, "briefs");
  const ran = join(dir, "ran");
  await mkdir(briefs);
  await mkdir(ran);
  for (const n of names) await writeFile(join(briefs, `${n}.yml`), brief);
  for (const n of failing) await writeFile(join(dir, `fail-${n}`), "");
  return { dir, briefs, state: join(dir, "state"), ran };
}

/** The worker leaves its own evidence (a file per brief it finished), independent of Bosun's journal. */
const worker = (ran: string): string => `sleep 0.3; touch "${ran}/$BOSUN_ITEM"; test ! -e "fail-$BOSUN_ITEM"`;

/** Keys whose live claim file is still there (the file store keeps a live claim as `claims/<key>/claim`). */
async function heldClaims(state: string): Promise<string[]> {
  const dir = join(state, "claims");
  if (!existsSync(dir)) return [];
  return (await readdir(dir)).filter((key) => existsSync(join(dir, key, "claim")));
}

describe("bosun drain whose stdout is closed early (`| head -1`)", () => {
  it("keeps going: every brief runs, the journal records every landing, no claim is left held, exit 0", async () => {
    const names = ["a", "b", "c", "d", "e"];
    const f = await folder(names);
    const r = await drainIntoClosedPipe(["drain", "--briefs", f.briefs, "--state", f.state, "--run", worker(f.ran), "--pool", "2"], f.dir);
    // The workers' own evidence: all five ran to the end.
    expect((await readdir(f.ran)).sort()).toEqual(names);
    const lands = (await readFile(join(f.state, "journal.jsonl"), "utf8")).split("\n").filter((l) => l.includes('"LAND"'));
    expect(lands).toHaveLength(5);
    expect(await heldClaims(f.state)).toEqual([]);
    expect(r.stderr).toContain("stdout");
    expect(r.code).toBe(0);
  });

  it("never turns a failure into 0: a failing brief still exits 1 through the closed pipe", async () => {
    const names = ["a", "b", "c"];
    const f = await folder(names, ["c"]);
    const r = await drainIntoClosedPipe(["drain", "--briefs", f.briefs, "--state", f.state, "--run", worker(f.ran), "--pool", "1"], f.dir);
    expect((await readdir(f.ran)).sort()).toEqual(names);
    expect(await heldClaims(f.state)).toEqual([]);
    expect(r.code).toBe(1);
  });
});
