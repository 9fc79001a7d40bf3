/** The stutters a newcomer met, each pinned: a number with its unit once, a name said once. */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { main } from "../../../src/cli/main.js";
import { TempRepo } from "../gate/temp-repo.js";
import { json, startVersionServer, type VersionServer } from "../verify/version-server.js";

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

let server: VersionServer | undefined;
const repos: TempRepo[] = [];
afterEach(async () => {
  await server?.close();
  server = undefined;
  for (const r of repos.splice(0)) r.remove();
});

describe("plain words", () => {
  it("a file outside the allowed paths is named once, and one changed line is a line", async () => {
    const repo = new TempRepo();
    repos.push(repo);
    repo.write("briefs/x.yml", "goal: Fix one thing.\nconstraints: {paths: [src/**]}\nacceptance: {command: \"true\"}\nsize_cap: 50\n").write("src/a.ts", "a\n").commit("base");
    repo.git("checkout", "-q", "-b", "work");
    repo.write("README.md", "hello\n").commit("one line outside");
    const run = await bosun(["gate", "--brief", "briefs/x.yml", "--base", "main", "--head", "work", "--no-acceptance"], repo.dir);
    expect(run.code).toBe(1);
    expect(run.out).not.toMatch(/README\.md: README\.md/);
    expect(run.out).toMatch(/^ {2}README\.md: changed outside the brief's allowed paths/m);
    expect(run.out).toContain("1 changed line ≤ size_cap 50");
    expect(run.out).not.toMatch(/\b1 changed lines\b/);
  });

  it("an oversized brief is measured in bytes, not characters", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bosun-big-"));
    // 3 bytes a character in UTF-8: 30,000 characters are 90,000 bytes.
    writeFileSync(join(dir, "big.yml"), `goal: ${"€".repeat(30_000)}\n`);
    const run = await bosun(["brief", "check", "big.yml"], dir);
    expect(run.code).toBe(1);
    expect(run.err).toContain("the brief is 90,007 bytes; at most 65,536 are read");
  });

  it("verify says its timing in units a person reads, and a mismatch says what it saw once", async () => {
    server = await startVersionServer((_n, _req, res) => json(res, { version: "v1" }));
    const run = await bosun(["verify", "--url", `${server.url}/version`, "--expect", "v2", "--field", "version", "--interval", "20ms", "--timeout", "300ms", "--probe-timeout", "200ms", "--seed", "1"], process.cwd());
    expect(run.code).toBe(1);
    expect(run.err).toMatch(/every 20ms, for up to 300ms$/m);
    const line = run.out.trim().split("\n").at(-1) ?? "";
    expect(line).toMatch(/^mismatch: \S+ reports v1, expected v2/);
    expect(line.match(/reports v1/g)).toHaveLength(1);
    expect(line.match(/expected v2/g)).toHaveLength(1);
  });
});
