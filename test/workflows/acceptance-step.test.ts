import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { readAcceptanceResult } from "../../src/action/acceptance-result.js";
import { TempRepo } from "../integration/gate/temp-repo.js";

// The shipped acceptance job's script, run for real in a git checkout, must write a file the gate
// reads as the run it was: the two ends of the hand-over agree.
const ROOT = join(import.meta.dirname, "../..");
const workflow = parse(readFileSync(join(ROOT, "docs/workflows/bosun-acceptance.yml"), "utf8")) as { jobs: { acceptance: { steps: { name?: string; run?: string; env?: Record<string, string> }[] } } };
const step = workflow.jobs.acceptance.steps.find((s) => s.run !== undefined);

function runStep(command: string, timeoutSeconds = "20") {
  const repo = new TempRepo().write("a.txt", "a\n").commit("head");
  const temp = mkdtempSync(join(tmpdir(), "bosun-runner-temp-"));
  const run = spawnSync("bash", ["-e", "-c", step?.run ?? "exit 99"], { cwd: repo.dir, encoding: "utf8", env: { PATH: process.env["PATH"], RUNNER_TEMP: temp, COMMAND: command, TIMEOUT_SECONDS: timeoutSeconds } });
  const result = readAcceptanceResult(readFileSync(join(temp, "bosun/acceptance-result.json"), "utf8"), "the step's file");
  const head = repo.git("rev-parse", "HEAD").trim();
  repo.remove();
  return { run, result, head };
}

describe("the shipped acceptance step", () => {
  it("is the documented command with a timeout", () => {
    expect(step?.env).toEqual({ COMMAND: "npm ci && npm test", TIMEOUT_SECONDS: "1200" });
  });

  it("records a failing command's exit code, its last lines and the checked-out commit, and itself succeeds", () => {
    const { run, result, head } = runStep("echo first; echo 'quote \" and $dollar'; exit 3");
    expect(run.status).toBe(0);
    expect(result).toMatchObject({ sha: head, run: { kind: "exited", command: "echo first; echo 'quote \" and $dollar'; exit 3", exitCode: 3 } });
    expect(result.run.kind === "exited" ? result.run.tail : "").toBe('first\nquote " and $dollar');
  });

  it("records a pass", () => {
    expect(runStep("true").result.run).toMatchObject({ kind: "exited", exitCode: 0 });
  });

  it("records a command killed at its timeout as timed out", () => {
    expect(runStep("sleep 5", "1").result.run).toMatchObject({ kind: "timed-out" });
  });
});
