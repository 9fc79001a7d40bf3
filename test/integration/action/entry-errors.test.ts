import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createFakeGitHub } from "../../fake-github/create-fake-github.js";
import type { FakeGitHub } from "../../fake-github/create-fake-github.js";

// The Action's real entry (src/action/index.ts through tsx) in a child process, with the
// environment a runner gives it: what a user sees is stdout's `::error::` lines.
const ROOT = join(import.meta.dirname, "../../..");
let fake: FakeGitHub | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

function runEntry(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", join(ROOT, "src/action/index.ts")], { cwd: ROOT, env: { PATH: process.env["PATH"] ?? "", ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

function eventFile(content: string): string {
  const path = join(mkdtempSync(join(tmpdir(), "bosun-event-")), "event.json");
  writeFileSync(path, content);
  return path;
}

const errors = (stdout: string) => stdout.split("\n").filter((l) => l.startsWith("::error::"));
const noStackTrace = (out: { stdout: string; stderr: string }) => expect(`${out.stdout}\n${out.stderr}`).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);

describe("the Action's entry with a broken environment", () => {
  it("a malformed event payload: one clear ::error::, no stack trace", async () => {
    const out = await runEntry({ INPUT_MODE: "gate", "INPUT_GITHUB-TOKEN": "t", GITHUB_REPOSITORY: "acme/app", GITHUB_EVENT_NAME: "pull_request", GITHUB_EVENT_PATH: eventFile("{ not json") });
    expect(errors(out.stdout)).toHaveLength(1);
    expect(errors(out.stdout)[0]).toMatch(/GITHUB_EVENT_PATH .*event\.json.* is not valid JSON/);
    noStackTrace(out);
    expect(out.code).toBe(1);
  });

  it.each([["an array", "[1,2]"], ["null", "null"]])("an event payload that is %s is refused the same way", async (_n, content) => {
    const out = await runEntry({ INPUT_MODE: "separation", "INPUT_GITHUB-TOKEN": "t", GITHUB_REPOSITORY: "acme/app", GITHUB_EVENT_PATH: eventFile(content) });
    expect(errors(out.stdout)).toHaveLength(1);
    expect(errors(out.stdout)[0]).toMatch(/GITHUB_EVENT_PATH .* JSON object/);
    noStackTrace(out);
  });

  it.each([["missing", undefined], ["not owner/name", "acme"]])("GITHUB_REPOSITORY %s: one ::error:: naming it, and no request to GitHub", async (_n, repository) => {
    fake = await createFakeGitHub();
    fake.addRepo({ fullName: "acme/app" });
    fake.addToken("t-actions", "github-actions[bot]", { permissions: { "acme/app": "write" } });
    const env: Record<string, string> = { INPUT_MODE: "separation", "INPUT_GITHUB-TOKEN": "t-actions", GITHUB_API_URL: fake.url, GITHUB_EVENT_NAME: "pull_request_target", GITHUB_EVENT_PATH: eventFile(JSON.stringify({ pull_request: { number: 1 } })) };
    if (repository !== undefined) env["GITHUB_REPOSITORY"] = repository;
    const out = await runEntry(env);
    expect(errors(out.stdout)).toHaveLength(1);
    expect(errors(out.stdout)[0]).toMatch(/GITHUB_REPOSITORY/);
    noStackTrace(out);
    expect(fake.accounting.log).toEqual([]);
  });

  it("a GITHUB_EVENT_PATH that does not exist is named", async () => {
    const out = await runEntry({ INPUT_MODE: "gate", GITHUB_REPOSITORY: "acme/app", GITHUB_EVENT_PATH: "/nonexistent/event.json" });
    expect(errors(out.stdout)).toHaveLength(1);
    expect(errors(out.stdout)[0]).toMatch(/GITHUB_EVENT_PATH '\/nonexistent\/event\.json' cannot be read/);
    noStackTrace(out);
  });

  it("a secret pasted into the wrong input is masked in the error that quotes it", async () => {
    const token = "ghs_pastedIntoTheWrongInput0123456789abc";
    const out = await runEntry({ INPUT_MODE: "separation", "INPUT_GITHUB-TOKEN": token, "INPUT_REQUIRED-APPROVALS": token, GITHUB_REPOSITORY: "acme/app", GITHUB_EVENT_PATH: eventFile("{}") });
    expect(errors(out.stdout)).toEqual(["::error::bosun separation: input 'required-approvals': '***' is not a whole number from 1 to 100"]);
    expect(out.stdout + out.stderr).not.toContain(token);
  });
});
