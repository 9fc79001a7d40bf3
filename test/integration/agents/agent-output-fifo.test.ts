/**
 * An agent that leaves something other than a file where a preset reads its output back: the drain
 * reads it without blocking, lands the item as needing a human with the reason, and ends.
 */
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runBosun } from "../../support/run-bosun.js";

const BRIEF = 'goal: Do one small thing.\nconstraints: {paths: [src/**]}\nacceptance: {command: "true"}\nsize_cap: 10\nbudget: {wall_clock: 10m}\n';

/** A `claude` on PATH that swaps its own output files (beside $BOSUN_RESULT) for what `script` makes. */
function agentBin(script: string): string {
  const bin = mkdtempSync(join(tmpdir(), "bosun-fifo-agent-"));
  writeFileSync(join(bin, "claude"), `#!/bin/sh\nrun="$(dirname "$BOSUN_RESULT")"\n${script}\nexit 0\n`);
  chmodSync(join(bin, "claude"), 0o755);
  return bin;
}

describe("an agent's output files that are not files", () => {
  const CASES: Array<[string, string, RegExp]> = [
    // Seen failing before the fix: the drain read the FIFO for ever, renewing the lease, deaf to SIGTERM.
    ["a FIFO in place of its stdout", 'rm -f "$run/agent.stdout"; mkfifo "$run/agent.stdout"', /agent\.stdout: a FIFO, not a regular file/],
    ["a link to /dev/zero in place of its stdout", 'rm -f "$run/agent.stdout"; ln -s /dev/zero "$run/agent.stdout"', /agent\.stdout: a symbolic link, not a regular file/],
    ["a FIFO in place of its result file", 'mkfifo "$BOSUN_RESULT"; echo \'{"type":"result","subtype":"success","is_error":false,"result":"done"}\'', /not a valid stop: a FIFO, not a regular file|a FIFO, not a regular file/],
  ];
  for (const [name, script, reason] of CASES) {
    it(`${name}: landed for a human with the reason, and the drain ends`, async () => {
      const dir = mkdtempSync(join(tmpdir(), "bosun-fifo-drain-"));
      await mkdir(join(dir, "briefs"));
      writeFileSync(join(dir, "briefs", "odd.yml"), BRIEF);
      const bin = agentBin(script);
      const run = await runBosun(["drain", "--agent", "claude-code", "--briefs", "briefs", "--state", "state", "--attempts", "1"], { cwd: dir, env: { PATH: `${bin}:${process.env["PATH"] ?? ""}` } });
      expect(run.code, run.stderr).toBe(1);
      const land = readFileSync(join(dir, "state", "journal.jsonl"), "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as { event: string; ok?: boolean; stop?: { reason?: string }; evidence?: { lines: string[] } })
        .find((e) => e.event === "LAND");
      expect(land?.ok).toBe(false);
      expect(`${land?.stop?.reason ?? ""}\n${land?.evidence?.lines.join("\n") ?? ""}`).toMatch(reason);
    });
  }
});

describe("a secret the agent echoes in its final message", () => {
  // Seen failing before the fix: the journal and terminal masked it, results/<id>.json and the claim record did not.
  it("is masked in the result file, the claim record, the journal and the terminal", async () => {
    const secret = "sk-ant-echoed-secret-4242-abcdef";
    const dir = mkdtempSync(join(tmpdir(), "bosun-echo-drain-"));
    await mkdir(join(dir, "briefs"));
    writeFileSync(join(dir, "briefs", "echo.yml"), BRIEF);
    const final = JSON.stringify({ type: "result", subtype: "error_during_execution", is_error: true, result: `I could not finish; for the record ANTHROPIC_API_KEY is ${secret}` });
    const bin = agentBin(`echo '${final}'`);
    const run = await runBosun(["drain", "--agent", "claude-code", "--briefs", "briefs", "--state", "state", "--attempts", "1"], { cwd: dir, env: { PATH: `${bin}:${process.env["PATH"] ?? ""}`, ANTHROPIC_API_KEY: secret } });
    expect(run.code, run.stderr).toBe(1);
    const written = {
      result: readFileSync(join(dir, "state", "results", "echo.json"), "utf8"),
      settled: readFileSync(join(dir, "state", "claims", encodeURIComponent("task:echo"), "settled"), "utf8"),
      journal: readFileSync(join(dir, "state", "journal.jsonl"), "utf8"),
      terminal: run.stdout + run.stderr,
    };
    for (const [where, text] of Object.entries(written)) {
      expect(text, where).toContain("I could not finish");
      expect(text, where).not.toContain(secret);
    }
  });
});
