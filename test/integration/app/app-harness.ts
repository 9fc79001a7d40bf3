/**
 * Bosun's Probot app against the fake GitHub, over real HTTP both ways: the fake signs and POSTs
 * webhooks to `createNodeMiddleware` on 127.0.0.1, and the app's Octokit calls the fake's REST API.
 * Shared by the integration tests and `bench/intake.ts`.
 */
import { generateKeyPairSync } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { pino } from "pino";
import { createNodeMiddleware, Probot, ProbotOctokit } from "probot";
import { bosunApp } from "../../../src/app/app.js";
import { createFakeGitHub, type FakeGitHub } from "../../fake-github/create-fake-github.js";
import type { ManualClock } from "../../fake-github/clock.js";
import { systemClock } from "../../../src/adapters/local/system-clock.js";
import type { ResponseValidator } from "../../fake-github/openapi/create-response-validator.js";
import { createTestOctokit } from "../../fake-github/test-octokit.js";
import type { Octokit } from "@octokit/rest";

export const REPO = "acme/app";
export const OWNER_REPO = { owner: "acme", repo: "app" } as const;
export const BOT = "bosun[bot]";
export const WEBHOOK_SECRET = "hush-webhook-secret";

let privateKey: string | undefined;
/** One RSA key per process: generating one takes ~100 ms. */
export function testPrivateKey(): string {
  privateKey ??= generateKeyPairSync("rsa", { modulusLength: 2048, privateKeyEncoding: { type: "pkcs1", format: "pem" }, publicKeyEncoding: { type: "spki", format: "pem" } }).privateKey;
  return privateKey;
}

export interface Harness {
  fake: FakeGitHub;
  clock: ManualClock;
  /** A person's client: `maintainer` (maintain: approves), `triager` (triage: labels and edits, no write), `reader`. */
  as(who: "maintainer" | "triager" | "reader" | "admin"): Octokit;
  /** Seeds an issue written by the triager. */
  issue(body: string, title?: string, labels?: string[]): number;
  labelsOf(number: number): string[];
  /** Comments on an issue as `[author, body]`. */
  comments(number: number): Array<[string, string]>;
  /** Writes by anyone but the listed humans, after the given log position (the bot's writes). */
  botWrites(since?: number): string[];
  /** Requests the bot made after the given log position, as `METHOD route status`. */
  botRequests(since?: number): string[];
  /**
   * The app's GraphQL requests after the given log position, by their first field (`pinIssue`,
   * `updateRefs`, `repository`): the tick reads and writes claim records over GraphQL too, so a
   * count of `POST /graphql` no longer counts pins.
   */
  graphqlFields(since?: number): string[];
  logPosition(): number;
  close(): Promise<void>;
}

export interface HarnessOptions {
  config?: string;
  /** Attach the OpenAPI response validator to every Octokit the app builds. */
  validator?: ResponseValidator;
  seed?: number;
  configMaxAgeMs?: number;
  /** The dashboard's least interval between routine writes (default: the app's). */
  dashboardIntervalMs?: number;
  /** Webhook events delivered to the app besides the default ones (app.yml subscribes to `check_run` too). */
  moreEvents?: readonly string[];
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const fake = await createFakeGitHub({ seed: options.seed ?? 1 });
  const clock = fake.clock as ManualClock;
  fake.addRepo({ fullName: REPO, files: options.config === undefined ? {} : { ".github/bosun.yml": options.config } });
  fake.addInstallation({ id: 501, appId: 42, appSlug: "bosun", repos: [REPO] });
  fake.addToken("t-maintainer", "mona", { permissions: { [REPO]: "maintain" } });
  fake.addToken("t-admin", "acme", {});
  fake.addToken("t-triager", "tia", { permissions: { [REPO]: "triage" } });
  fake.addToken("t-reader", "rui", { permissions: { [REPO]: "read" } });
  const validator = options.validator;
  const graphqlCalls: Array<{ seq: number; field: string }> = [];
  const Validated = ProbotOctokit.plugin((octokit) => {
    validator?.attach(octokit as never);
    // Recorded once answered, failures too, at the log position of its answer.
    octokit.hook.wrap("request", async (request, options) => {
      const query = options.url === "/graphql" ? options["query"] : undefined;
      try {
        return await request(options);
      } finally {
        if (typeof query === "string") graphqlCalls.push({ seq: fake.accounting.log.at(-1)?.seq ?? 0, field: firstField(query) });
      }
    });
    return {};
  });
  // Probot merges its own throttle options over `ProbotOctokit.defaults(...)`, and its write limiter
  // spaces content-creating requests a second apart: force throttling and retries off per instance.
  class Octokit extends Validated {
    constructor(...args: ConstructorParameters<typeof Validated>) {
      const options = args[0] ?? {};
      super({ ...options, throttle: { ...options.throttle, enabled: false }, retry: { enabled: false } } as typeof options);
    }
  }
  const probot = new Probot({
    appId: 42,
    privateKey: testPrivateKey(),
    secret: WEBHOOK_SECRET,
    baseUrl: fake.url,
    log: pino({ level: process.env.DEBUG_PROBOT === undefined ? "silent" : "debug" }),
    Octokit: Octokit as unknown as typeof ProbotOctokit,
  });
  const middleware = await createNodeMiddleware((app) => bosunApp(app, { now: () => clock.now(), clock: { ...systemClock, now: () => clock.now() }, configMaxAgeMs: options.configMaxAgeMs ?? 0, heardJitterMs: 0, ...(options.dashboardIntervalMs === undefined ? {} : { dashboardIntervalMs: options.dashboardIntervalMs }) }), { probot, webhooksPath: "/api/github/webhooks" });
  const server: Server = createServer((req, res) => {
    void middleware(req, res, () => res.writeHead(404).end());
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  fake.webhooks.register({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/github/webhooks`, secret: WEBHOOK_SECRET, events: ["issues", "issue_comment", "label", "workflow_run", "pull_request", "installation", "installation_repositories", ...(options.moreEvents ?? [])] });
  const tokens = { maintainer: "t-maintainer", triager: "t-triager", reader: "t-reader", admin: "t-admin" } as const;
  const isAuth = (route: string | null) => route === "POST /app/installations/{installation_id}/access_tokens";
  return {
    fake,
    clock,
    as: (who) => createTestOctokit(fake.url, tokens[who]),
    issue: (body, title = "A brief", labels = []) => fake.addIssue(REPO, { title, body, user: "tia", labels }).number,
    labelsOf: (n) => [...(fake.repo(REPO).issues.get(n)?.labels ?? [])].sort(),
    comments: (n) => [...fake.repo(REPO).comments.values()].filter((c) => c.issueNumber === n).map((c) => [c.user, c.body]),
    botWrites: (since = 0) => fake.accounting.log.filter((e) => e.seq > since && e.login === BOT && e.method !== "GET" && !isAuth(e.route)).map((e) => `${e.route ?? `${e.method} ${e.path}`} ${e.status}`),
    botRequests: (since = 0) => fake.accounting.log.filter((e) => e.seq > since && e.login === BOT).map((e) => `${e.route ?? `${e.method} ${e.path}`} ${e.status}`),
    graphqlFields: (since = 0) => graphqlCalls.filter((c) => c.seq > since).map((c) => c.field),
    logPosition: () => fake.accounting.log.at(-1)?.seq ?? 0,
    async close() {
      await fake.close();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** The first field a GraphQL document selects: `mutation ($id: ID!) { pinIssue(...) {...} }` → `pinIssue`. */
function firstField(query: string): string {
  return /\{\s*([A-Za-z_]\w*)/.exec(query)?.[1] ?? "?";
}

/** A complete, valid issue-form body; `over` replaces sections by heading. */
export function formBody(over: Record<string, string> = {}): string {
  const sections: Record<string, string> = {
    Goal: "Honor Retry-After on 429 and 503 in the HTTP client wrapper.",
    "Allowed paths": "src/http/**\ntest/http/**",
    Constraints: "- keep the public request() signature",
    "Non-goals": "- exponential backoff",
    "Acceptance command": "```shell\nnpm test -- http\n```",
    "Acceptance timeout": "10m",
    "Size cap": "300",
    Priority: "P2",
    Pool: "_No response_",
    Due: "_No response_",
    ...over,
  };
  return Object.entries(sections)
    .filter(([, v]) => v !== "")
    .map(([k, v]) => `### ${k}\n\n${v}`)
    .join("\n\n");
}
