/**
 * Files and arguments the CLI reads from something it does not control: a FIFO, a device, an empty
 * ref. Each is refused with a reason, never waited on, read into memory, or taken as "nothing".
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { main } from "../../../src/cli/main.js";
import { TempRepo } from "../gate/temp-repo.js";

async function bosun(args: string[], cwd: string): Promise<{ code: number; out: string; err: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = "";
  let err = "";
  stdout.on("data", (c: Buffer) => (out += c.toString()));
  stderr.on("data", (c: Buffer) => (err += c.toString()));
  const code = await main(args, { stdout, stderr, stdin: new PassThrough(), env: { PATH: process.env["PATH"] }, cwd });
  return { code, out, err };
}

/** A folder holding `name` as a FIFO that nobody writes to: a plain read of it never returns. */
function fifoIn(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), "bosun-fifo-"));
  execFileSync("mkfifo", [join(dir, name)]);
  return dir;
}

const repos: TempRepo[] = [];
afterEach(() => {
  for (const r of repos.splice(0)) r.remove();
});

describe("hostile files and arguments on the command line", () => {
  // Seen failing before the fix: the read of the FIFO never returned (the test ran out of time).
  it("config check on a FIFO answers at once: not a regular file, usage error", async () => {
    const dir = fifoIn("bosun.yml");
    const run = await bosun(["config", "check", "bosun.yml"], dir);
    expect(run.code).toBe(2);
    expect(run.err).toContain("cannot read bosun.yml: a FIFO, not a regular file");
  });

  // Seen failing before the fix: /dev/zero was read until memory ran out.
  it("config check on /dev/zero (through a link) is refused without reading it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bosun-zero-"));
    symlinkSync("/dev/zero", join(dir, "bosun.yml"));
    const run = await bosun(["config", "check", "bosun.yml"], dir);
    expect(run.code).toBe(2);
    expect(run.err).toContain("cannot read bosun.yml: a device, not a regular file");
  });

  it("brief check and gate --brief on a FIFO answer at once", async () => {
    const dir = fifoIn("b.yml");
    const check = await bosun(["brief", "check", "b.yml"], dir);
    expect(check.code).toBe(2);
    expect(check.err).toContain("cannot read b.yml: a FIFO, not a regular file");
    const gate = await bosun(["gate", "--brief", "b.yml", "--base", "main"], dir);
    expect(gate.code).toBe(2);
    expect(gate.err).toContain("cannot read b.yml: a FIFO, not a regular file");
  });

  it("replay of a FIFO answers at once, naming it", async () => {
    const dir = fifoIn("trace.csv");
    const run = await bosun(["replay", "trace.csv"], dir);
    expect(run.code).toBe(2);
    expect(run.err).toContain("cannot read trace.csv: a FIFO, not a regular file");
  });

  // Seen failing before the fix: `--base ""` diffed HEAD...HEAD, found no change, and passed.
  for (const flag of ["--base", "--head"]) {
    it(`gate ${flag} "" (a script's unset variable) is a usage error, not a pass over an empty diff`, async () => {
      const repo = new TempRepo();
      repos.push(repo);
      repo.write("briefs/x.yml", 'goal: Fix one thing.\nconstraints: {paths: [src/**]}\nacceptance: {command: "true"}\nsize_cap: 50\n').write("src/a.ts", "a\n").commit("base");
      repo.git("checkout", "-q", "-b", "work");
      repo.write("secrets.txt", "outside the brief\n").commit("outside");
      const other = flag === "--base" ? ["--head", "work"] : ["--base", "main"];
      const run = await bosun(["gate", "--brief", "briefs/x.yml", flag, "", ...other, "--no-acceptance"], repo.dir);
      expect(run.code).toBe(2);
      expect(run.err).toContain(`${flag} is empty`);
      expect(run.out).not.toMatch(/pass/i);
    });
  }
});

describe("a base that already holds the head", () => {
  // Seen failing before the fix: each diffed nothing and the gate passed (exit 0) with the work
  // branch's off-brief file never looked at — the `--base ""` hole by another spelling.
  it.each([["HEAD"], ["work"], ["ahead"]])("gate --base %s over the work branch could not check (exit 3), never a pass", async (base) => {
    const repo = new TempRepo();
    repos.push(repo);
    repo.write("briefs/x.yml", 'goal: Fix one thing.\nconstraints: {paths: [src/**]}\nacceptance: {command: "true"}\nsize_cap: 50\n').write("src/a.ts", "a\n").commit("base");
    repo.git("checkout", "-q", "-b", "work");
    repo.write("secrets.txt", "outside the brief\n").commit("outside");
    repo.git("branch", "ahead");
    repo.git("checkout", "-q", "ahead");
    repo.write("src/b.ts", "b\n").commit("later");
    repo.git("checkout", "-q", "work");
    const run = await bosun(["gate", "--brief", "briefs/x.yml", "--base", base, "--no-acceptance"], repo.dir);
    expect(run.code).toBe(3);
    expect(run.err).toContain("adds no commit over");
    expect(run.out).not.toMatch(/pass/i);
  });

  it("a base the head is ahead of is still judged (the off-brief file fails)", async () => {
    const repo = new TempRepo();
    repos.push(repo);
    repo.write("briefs/x.yml", 'goal: Fix one thing.\nconstraints: {paths: [src/**]}\nacceptance: {command: "true"}\nsize_cap: 50\n').write("src/a.ts", "a\n").commit("base");
    repo.git("checkout", "-q", "-b", "work");
    repo.write("secrets.txt", "outside the brief\n").commit("outside");
    const run = await bosun(["gate", "--brief", "briefs/x.yml", "--base", "main", "--no-acceptance"], repo.dir);
    expect(run.code).toBe(1);
    expect(run.out).toContain("secrets.txt");
  });
});

describe("command names objects already have", () => {
  // Seen failing before the fix: `commands["constructor"]` was Object's own, and each of these
  // crashed with a TypeError (exit 1 and a stack) instead of naming an unknown command.
  it.each(["constructor", "toString", "__proto__", "hasOwnProperty", "valueOf"])("bosun %s, its help and --help: an unknown command (exit 2)", async (name) => {
    const dir = mkdtempSync(join(tmpdir(), "bosun-name-"));
    for (const args of [[name], ["help", name], [name, "--help"]]) {
      const run = await bosun(args, dir);
      expect(run.code).toBe(2);
      expect(run.err).toContain(`bosun: unknown command '${name}'`);
    }
  });
});
