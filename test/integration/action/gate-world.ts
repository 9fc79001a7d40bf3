import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createGateMode } from "../../../src/action/modes/gate.js";
import { renderSnapshotComment } from "../../../src/core/brief/snapshot.js";
import type { FakeGitHub } from "../../fake-github/create-fake-github.js";
import { createFakeGitHub } from "../../fake-github/create-fake-github.js";
import type { PullFileRecord, PullRecord } from "../../fake-github/state.js";
import { memoryActionIo } from "../gate/memory-action-io.js";
import { TempRepo } from "../gate/temp-repo.js";
import { brief } from "../../unit/gate/gate-fixtures.js";
import { briefHash } from "../../../src/core/brief/parse-brief.js";
import { createTestOctokit } from "../../fake-github/test-octokit.js";
import { grant, writeClaim } from "../gate/trust-fixtures.js";

export const REPO = "acme/app";
/** The runner's token as the gate step receives it. */
export const RUNNER_TOKEN = "ghs_runnerToken0123456789abcdefABCDEF0123";

/** A changed text file as the pull request's files API lists it. */
export const text = (path: string, additions = 1): PullFileRecord => ({ filename: path, status: "modified", additions, deletions: 0, patch: `@@ -1 +1,${additions} @@\n${"+x\n".repeat(additions)}` });

/**
 * A fake GitHub with an issue carrying the bot's snapshot of a brief, a pull request Bosun would
 * have opened for it (branch `bosun/<n>-…`, `Closes #n`), and the PR's head checked out as a real git
 * repository whose HEAD is the pull request's head SHA.
 */
export async function gateWorld(options: { command?: (scratch: string) => string; brief?: Record<string, unknown>; files?: PullFileRecord[] } = {}) {
  const scratch = mkdtempSync(join(tmpdir(), "bosun-gate-scratch-"));
  const files = options.files ?? [text("src/http/client.ts", 2)];
  const briefFields = { ...options.brief, acceptance: { command: options.command?.(scratch) ?? "true" } };
  const fake: FakeGitHub = await createFakeGitHub();
  fake.addRepo({ fullName: REPO });
  fake.addToken(RUNNER_TOKEN, "github-actions[bot]", { permissions: { [REPO]: "write" } });
  const issue = fake.addIssue(REPO, { title: "Honor Retry-After", user: "maintainer" });
  const b = brief({ ...briefFields, id: String(issue.number) });
  fake.repo(REPO).comments.set(9001, { id: 9001, issueNumber: issue.number, body: renderSnapshotComment(b), user: "bosun[bot]", createdAt: 0, updatedAt: 0 });
  fake.setFile(REPO, "main", `briefs/${issue.number}.yml`, JSON.stringify(b));
  // Bosun's record of the dispatch: a claim commit GitHub signed for the bot, with the snapshot's hash.
  fake.addToken("t-bosun-claims", "bosun[bot]", { permissions: { [REPO]: "write" } });
  await writeClaim(createTestOctokit(fake.url, "t-bosun-claims"), { owner: "acme", repo: "app" }, issue.number, grant(String(issue.number), { briefHash: briefHash(b) }));
  // The setup's own requests are not the gate's: tests count what the gate asked.
  fake.accounting.reset();
  const checkout = new TempRepo().write("src/http/client.ts", "export {};\n").commit("the head");
  const pull: PullRecord = fake.addPull(REPO, { title: "Add retries", body: `Closes #${issue.number}`, head: `bosun/${issue.number}-retries`, user: "copilot-swe-agent[bot]", files });
  // The fake names commits by its own hashes: register the checkout's real commit as the head.
  const realSha = checkout.git("rev-parse", "HEAD").trim();
  const head = fake.repo(REPO).commits.get(pull.headSha);
  if (head === undefined) throw new Error("the fake has no head commit");
  fake.repo(REPO).commits.set(realSha, { ...head, sha: realSha });
  pull.headSha = realSha;
  pull.commits = [...pull.commits.slice(0, -1), realSha];
  return {
    fake,
    pull,
    checkout,
    scratch,
    /** Runs the gate mode on a `pull_request` event for this PR from a fork. */
    async run(inputs: Record<string, string>, env: Record<string, string | undefined>) {
      const payload = { pull_request: { number: pull.number, head: { sha: pull.headSha, ref: pull.headRef, repo: { full_name: "mallory/app", fork: true } }, base: { ref: "main", repo: { full_name: REPO } } } };
      const io = memoryActionIo({ eventName: "pull_request", payload, inputs: { "github-token": RUNNER_TOKEN, "working-directory": checkout.dir, ...inputs }, env: { GITHUB_API_URL: fake.url, ...env } });
      await createGateMode().run(io.io);
      return io;
    },
    /** Runs the gate mode on any event (e.g. the trusted `workflow_run` after the untrusted job). */
    async runAs(eventName: string, payload: Record<string, unknown>, inputs: Record<string, string>, env: Record<string, string | undefined>) {
      const io = memoryActionIo({ eventName, payload, inputs: { "github-token": RUNNER_TOKEN, ...inputs }, env: { GITHUB_API_URL: fake.url, ...env } });
      await createGateMode().run(io.io);
      return io;
    },
    async close() {
      await fake.close();
      checkout.remove();
      rmSync(scratch, { recursive: true, force: true });
    },
  };
}
