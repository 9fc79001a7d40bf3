/**
 * The README's "Put Bosun on a repository", path A, as far as it runs without github.com: the
 * server started from `.env.example`'s variables, the README's `.github/bosun.yml` through
 * `bosun config check`, then an issue written with the form, approved by a maintainer who did not
 * write it, and its work dispatched — judged from what the fake GitHub recorded (labels, comments, workflow runs).
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterEach, describe, expect, test, vi } from "vitest";
import { startAppServer, type AppServer } from "../../../src/app/server.js";
import schedule from "../../../src/action/modes/schedule.js";
import { main } from "../../../src/cli/main.js";
import { DEFAULT_INIT_AGENT, initConfig, workWorkflowOf } from "../../../src/core/setup/init-files.js";
import { createFakeGitHub, type FakeGitHub } from "../../fake-github/create-fake-github.js";
import { createTestOctokit } from "../../fake-github/test-octokit.js";
import { memoryActionIo } from "../gate/memory-action-io.js";
import { formBody, testPrivateKey } from "./app-harness.js";
import { runItems } from "../../support/run-items.js";

const ROOT = join(import.meta.dirname, "../../..");
const README = readFileSync(join(ROOT, "README.md"), "utf8");
const ENV_EXAMPLE = readFileSync(join(ROOT, ".env.example"), "utf8");

/** The README's configuration: the yaml block that carries the schema line. */
const readmeConfig = (): string => {
  const block = /```yaml\n([\s\S]*?yaml-language-server[\s\S]*?)```/.exec(README)?.[1];
  if (block === undefined) throw new Error("README.md has no yaml block with the schema line");
  return block.replace(/^ {3}/gm, "");
};

let fake: FakeGitHub | undefined;
let server: AppServer | undefined;
afterEach(async () => {
  await fake?.close();
  await server?.close();
  fake = undefined;
  server = undefined;
});

describe("a newcomer following the README", () => {
  test("config check passes the README's file; the server from .env.example's variables takes a labelled issue to a dispatched run", { timeout: 90_000 }, async () => {
    const config = readmeConfig();
    expect(config.split("\n")[0]).toBe("# yaml-language-server: $schema=https://raw.githubusercontent.com/bosun-dev/bosun/v1/schema/bosun-config.schema.json");
    // It is what `bosun init` and the onboarding pull request write.
    expect(config).toBe(initConfig(DEFAULT_INIT_AGENT));

    // Step 3: the configuration through `npx bosun config check`, in the repository.
    const checkout = mkdtempSync(join(tmpdir(), "bosun-newcomer-"));
    mkdirSync(join(checkout, ".github"));
    writeFileSync(join(checkout, ".github/bosun.yml"), config);
    const out = new PassThrough();
    let printed = "";
    out.on("data", (c: Buffer) => (printed += c.toString()));
    expect(await main(["config", "check"], { stdout: out, stderr: new PassThrough(), stdin: new PassThrough(), env: {}, cwd: checkout })).toBe(0);
    expect(printed).toContain(".github/bosun.yml: valid; policy hybrid; pools: default (size 2, workflow)");

    // Step 1 and 3: the app exists and is installed on the repository.
    fake = await createFakeGitHub({ seed: 17 });
    fake.addRepo({ fullName: "acme/app", files: { ".github/bosun.yml": config } });
    fake.addInstallation({ id: 7, appId: 4242, appSlug: "bosun", repos: ["acme/app"] });
    fake.addWorkflow("acme/app", { path: `.github/workflows/${workWorkflowOf(DEFAULT_INIT_AGENT)}`, name: "bosun work", runName: "bosun ${{ inputs.title }}" });
    fake.addToken("t-mona", "mona", { permissions: { "acme/app": "maintain" } });

    // Step 2: every variable .env.example asks to fill in, filled in; `npm start`.
    const required = [...ENV_EXAMPLE.matchAll(/^([A-Z_]+)=$/gm)].map((m) => m[1]);
    expect(required).toEqual(["APP_ID", "PRIVATE_KEY", "WEBHOOK_SECRET"]);
    const values: Record<string, string> = { APP_ID: "4242", PRIVATE_KEY: testPrivateKey(), WEBHOOK_SECRET: "newcomer-secret" };
    const lines: string[] = [];
    server = await startAppServer({ ...values, BOSUN_API_URL: fake.url, HOST: "127.0.0.1", PORT: "0", LOG_LEVEL: "fatal" }, { announce: (l) => lines.push(l) });
    expect(lines[0]).toContain(`webhooks at ${server.url}/api/github/webhooks`);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    fake.webhooks.register({ url: `${server.url}/api/github/webhooks`, secret: values["WEBHOOK_SECRET"] as string, events: ["issues", "issue_comment", "workflow_run", "pull_request"] });

    // Step 5: an issue written with the form, labelled bosun:ready by a maintainer who did not write it.
    const issue = fake.addIssue("acme/app", { title: "Honor Retry-After", body: formBody(), user: "tia" });
    await createTestOctokit(fake.url, "t-mona").issues.addLabels({ owner: "acme", repo: "app", issue_number: issue.number, labels: ["bosun:ready"] });
    await fake.webhooks.flush();
    const repo = fake.repo("acme/app");
    // The server's Probot client spaces its writes (1 s, 3 s for comments: Probot's throttling
    // defaults), so its handlers outlive the deliveries: wait for the run to appear.
    await vi.waitFor(() => expect(repo.workflowRuns.size).toBe(1), { timeout: 60_000, interval: 100 });

    const comments = [...repo.comments.values()].filter((c) => c.issueNumber === issue.number);
    expect(comments.some((c) => c.user === "bosun[bot]" && c.body.includes("sha256:"))).toBe(true);
    // The labels mirror the record after the dispatch, one spaced write later.
    await vi.waitFor(() => expect([...(repo.issues.get(issue.number)?.labels ?? [])].sort()).toEqual(["bosun:claimed", "bosun:ready"]), { timeout: 60_000, interval: 100 });
    const runs = [...repo.workflowRuns.values()].flatMap((r) => runItems(r).map((i) => ({ item: i.item, epoch: String(i.epoch) })));
    expect(runs).toEqual([{ item: String(issue.number), epoch: "1" }]);
  });

  test("path B, the Action alone: a maintainer's label, then the schedule mode, queues the issue and dispatches it", async () => {
    fake = await createFakeGitHub({ seed: 18 });
    fake.addRepo({ fullName: "acme/app", files: { ".github/bosun.yml": readmeConfig() } });
    fake.addWorkflow("acme/app", { path: `.github/workflows/${workWorkflowOf(DEFAULT_INIT_AGENT)}`, name: "bosun work", runName: "bosun ${{ inputs.title }}" });
    // The app token the docs' schedule workflow mints (an installation's bot), and a maintainer.
    fake.addToken("t-app", "bosun[bot]", { permissions: { "acme/app": "write" } });
    fake.addToken("t-mona", "mona", { permissions: { "acme/app": "maintain" } });
    const issue = fake.addIssue("acme/app", { title: "Honor Retry-After", body: formBody(), user: "tia" });
    await createTestOctokit(fake.url, "t-mona").issues.addLabels({ owner: "acme", repo: "app", issue_number: issue.number, labels: ["bosun:ready"] });

    // The workflow run that `on: issues: [labeled]` starts.
    const io = memoryActionIo({
      inputs: { "github-token": "t-app", "bot-login": "bosun[bot]" },
      eventName: "issues",
      payload: { action: "labeled", label: { name: "bosun:ready" }, sender: { login: "mona" }, issue: { number: issue.number, body: formBody() }, repository: { default_branch: "main" } },
      env: { GITHUB_API_URL: fake.url },
    });
    await schedule.run(io.io);
    expect(io.failures).toEqual([]);
    const repo = fake.repo("acme/app");
    expect([...repo.comments.values()].some((c) => c.issueNumber === issue.number && c.user === "bosun[bot]" && c.body.includes("sha256:"))).toBe(true);
    expect([...repo.workflowRuns.values()].flatMap((r) => runItems(r).map((i) => ({ item: i.item, epoch: String(i.epoch) })))).toEqual([{ item: String(issue.number), epoch: "1" }]);
  });
});
