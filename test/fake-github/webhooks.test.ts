/** Webhook delivery: signed, real payload shapes filled from state, auto-emitted, dropped/duplicated/reordered by seed. */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { verify } from "@octokit/webhooks-methods";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { createFakeGitHub, type FakeGitHub } from "./create-fake-github.js";
import { createTestOctokit } from "./test-octokit.js";

interface Received {
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

async function receiver(): Promise<{ url: string; received: Received[]; server: Server }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(202).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received, server };
}

const repo = { owner: "acme", repo: "app" };

describe("webhooks", () => {
  let fake: FakeGitHub;
  let hook: Awaited<ReturnType<typeof receiver>>;
  beforeEach(async () => {
    fake = await createFakeGitHub({ seed: 3 });
    fake.addRepo({ fullName: "acme/app" });
    fake.addInstallation({ id: 77, appId: 1, appSlug: "bosun", repos: ["acme/app"] });
    fake.addToken("t", "mona", { permissions: { "acme/app": "write" } });
    hook = await receiver();
    fake.webhooks.register({ url: hook.url, secret: "s3cret" });
  });
  afterEach(async () => {
    await fake.close();
    hook.server.close();
  });

  test("adding a label through the API delivers a signed issues.labeled with the fake's state", async () => {
    const issue = fake.addIssue("acme/app", { title: "Honor Retry-After" });
    await createTestOctokit(fake.url, "t").issues.addLabels({ ...repo, issue_number: issue.number, labels: ["bosun:ready"] });
    await fake.webhooks.flush();
    expect(hook.received).toHaveLength(1);
    const [delivery] = hook.received;
    expect(delivery?.headers["x-github-event"]).toBe("issues");
    expect(delivery?.headers["x-github-delivery"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(await verify("s3cret", delivery?.body ?? "", String(delivery?.headers["x-hub-signature-256"]))).toBe(true);
    const payload = JSON.parse(delivery?.body ?? "{}") as Record<string, unknown>;
    expect(payload).toMatchObject({
      action: "labeled",
      label: { name: "bosun:ready" },
      issue: { number: issue.number, title: "Honor Retry-After", labels: [{ name: "bosun:ready" }] },
      repository: { full_name: "acme/app" },
      sender: { login: "mona" },
      installation: { id: 77 },
    });
    // Fields GitHub sends that the fake does not model come from the real example payload.
    expect(payload.issue).toHaveProperty("reactions");
  });

  test("opening an issue and commenting emit issues.opened and issue_comment.created", async () => {
    const o = createTestOctokit(fake.url, "t");
    const { data } = await o.issues.create({ ...repo, title: "new" });
    await o.issues.createComment({ ...repo, issue_number: data.number, body: "hello" });
    await fake.webhooks.flush();
    expect(fake.webhooks.deliveries.map((d) => `${d.event}.${d.action ?? ""}`)).toEqual(["issues.opened", "issue_comment.created"]);
    expect(fake.webhooks.deliveries[1]?.payload).toMatchObject({ comment: { body: "hello", user: { login: "mona" } }, issue: { number: data.number } });
  });

  test("completing a workflow run emits workflow_run.completed with the conclusion", async () => {
    const workflow = fake.addWorkflow("acme/app", { path: ".github/workflows/bosun-worker.yml" });
    const o = createTestOctokit(fake.url, "t");
    const { data } = await o.request("POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches", { ...repo, workflow_id: workflow, ref: "main", return_run_details: true });
    const runId = (data as unknown as { workflow_run_id: number }).workflow_run_id;
    fake.completeWorkflowRun("acme/app", runId, "success");
    await fake.webhooks.flush();
    const last = fake.webhooks.deliveries.at(-1);
    expect(last).toMatchObject({ event: "workflow_run", action: "completed", payload: { workflow_run: { id: runId, status: "completed", conclusion: "success" } } });
  });

  test("drop, duplicate and reorder are seeded: the same seed gives the same deliveries", async () => {
    const run = async (seed: number) => {
      const f = await createFakeGitHub({ seed });
      f.addRepo({ fullName: "acme/app" });
      const r = await receiver();
      f.webhooks.register({ url: r.url, secret: "x" });
      f.webhooks.configure({ hold: true, drop: 0.2, duplicate: 0.2, reorder: true });
      for (let i = 0; i < 20; i++) {
        const issue = f.addIssue("acme/app", { title: `i${i}` });
        f.webhooks.send({ event: "issues", action: "opened", repo: f.repo("acme/app"), sender: "mona", fields: { issue: { number: issue.number } } });
      }
      expect(r.received).toHaveLength(0); // held until flush
      await f.webhooks.flush();
      await f.close();
      r.server.close();
      return f.webhooks.deliveries.map((d) => `${(d.payload.issue as { number: number }).number}${d.dropped ? "x" : d.duplicate ? "+" : ""}`);
    };
    const a = await run(11);
    expect(await run(11)).toEqual(a);
    expect(a.some((d) => d.endsWith("x"))).toBe(true);
    expect(a.some((d) => d.endsWith("+"))).toBe(true);
    const order = a.filter((d) => !d.endsWith("+")).map((d) => Number.parseInt(d, 10));
    expect(order).not.toEqual([...order].sort((x, y) => x - y));
  });

  test("a redelivery repeats the delivery id", async () => {
    fake.addIssue("acme/app");
    fake.webhooks.send({ event: "issues", action: "opened", repo: fake.repo("acme/app"), sender: "mona" });
    await fake.webhooks.flush();
    const first = fake.webhooks.deliveries[0];
    const again = await fake.webhooks.redeliver(first?.id ?? "");
    expect(again.id).toBe(first?.id);
    expect(hook.received.map((r) => r.headers["x-github-delivery"])).toEqual([first?.id, first?.id]);
  });

  test("autoEmit false keeps API changes silent", async () => {
    fake.webhooks.configure({ autoEmit: false });
    await createTestOctokit(fake.url, "t").issues.create({ ...repo, title: "quiet" });
    await fake.webhooks.flush();
    expect(hook.received).toHaveLength(0);
  });
});
