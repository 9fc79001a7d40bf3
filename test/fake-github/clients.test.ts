/** The three real clients reach the fake through `baseUrl`: Probot (app JWT → installation token, webhooks), @actions/github. */
import { generateKeyPairSync } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { getOctokit } from "@actions/github";
import { pino } from "pino";
import { createNodeMiddleware, Probot, ProbotOctokit } from "probot";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createFakeGitHub, type FakeGitHub } from "./create-fake-github.js";

describe("real clients against the fake", () => {
  let fake: FakeGitHub;
  let server: Server;
  beforeAll(async () => {
    fake = await createFakeGitHub();
    fake.addRepo({ fullName: "acme/app", files: { ".github/bosun.yml": "pools:\n  default: 2\n" } });
    fake.addInstallation({ id: 501, appId: 42, appSlug: "bosun", repos: ["acme/app"] });
    fake.addToken("t-maintainer", "mona", { permissions: { "acme/app": "maintain" } });
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048, privateKeyEncoding: { type: "pkcs1", format: "pem" }, publicKeyEncoding: { type: "spki", format: "pem" } });
    const probot = new Probot({
      appId: 42,
      privateKey,
      secret: "hush",
      baseUrl: fake.url,
      log: pino({ level: process.env.DEBUG_PROBOT === undefined ? "silent" : "debug" }),
      Octokit: ProbotOctokit.defaults({ retry: { enabled: false }, throttle: { enabled: false } }),
    });
    await probot.load((app) => {
      app.on("issues.labeled", async (context) => {
        const config = await context.config<{ pools: Record<string, number> }>("bosun.yml");
        const { data: permission } = await context.octokit.rest.repos.getCollaboratorPermissionLevel(context.repo({ username: context.payload.sender.login }));
        await context.octokit.rest.issues.createComment(
          context.issue({ body: `queued by ${permission.role_name}; pool size ${config?.pools.default ?? "?"}` }),
        );
      });
    });
    const middleware = await createNodeMiddleware(() => {}, { probot, webhooksPath: "/api/github/webhooks" });
    server = createServer((req, res) => {
      void middleware(req, res);
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    fake.webhooks.register({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/github/webhooks`, secret: "hush" });
  });
  afterAll(async () => {
    await fake.close();
    server.close();
  });

  test("Probot receives the signed webhook, takes an installation token with its JWT, reads config and comments as its bot", async () => {
    const issue = fake.addIssue("acme/app", { title: "work" });
    const maintainer = getOctokit("t-maintainer", { baseUrl: fake.url });
    await maintainer.rest.issues.addLabels({ owner: "acme", repo: "app", issue_number: issue.number, labels: ["bosun:ready"] });
    await fake.webhooks.flush();
    expect(fake.webhooks.deliveries[0]?.status).toBe(200);
    const comments = [...fake.repo("acme/app").comments.values()];
    expect(comments.map((c) => [c.user, c.body])).toEqual([["bosun[bot]", "queued by maintain; pool size 2"]]);
    const routes = fake.accounting.log.map((e) => `${e.route ?? "?"} ${e.status} ${e.login ?? "-"}`);
    expect(routes).toContain("POST /app/installations/{installation_id}/access_tokens 201 bosun[bot]");
    expect(routes).toContain("GET /repos/{owner}/{repo}/contents/{path} 200 bosun[bot]");
  });

  test("@actions/github's getOctokit works with baseUrl, as github-actions[bot]", async () => {
    fake.addToken("ghs-actions", "github-actions[bot]", { permissions: { "acme/app": "write" } });
    const octokit = getOctokit("ghs-actions", { baseUrl: fake.url });
    const { data } = await octokit.rest.repos.getContent({ owner: "acme", repo: "app", path: ".github/bosun.yml", ref: "main" });
    expect(Buffer.from((data as { content: string }).content, "base64").toString("utf8")).toBe("pools:\n  default: 2\n");
  });
});
