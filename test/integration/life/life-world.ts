/**
 * One repository set up exactly as the docs tell a new user to: the shipped workflows copied from
 * docs/workflows/ into `.github/workflows/` (the acceptance workflow's COMMAND set to the briefs'
 * acceptance command, as its header asks), the issue form, a `.github/bosun.yml` with a `workflow`
 * pool dispatching bosun-work.yml, the App's key and client id as secrets of the `bosun`
 * environment (which deploys from the default branch only), `bosun/gate` and `bosun/separation`
 * required from the App on `main`, and the agent script the work workflow names. The real Probot
 * app (one or more replicas behind one webhook URL) hears the fake's webhooks; the workflow player
 * plays the workflow runs; people act through the API.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DASHBOARD_MARKER } from "../../../src/core/dashboard/dashboard-state.js";
import { systemClock } from "../../fake-github/clock.js";
import { createFakeGitHub, type FakeGitHub } from "../../fake-github/create-fake-github.js";
import { createActionsService, type ActionsService } from "../../support/workflow-player/actions-service.js";
import { PROJECT_ROOT } from "../../support/workflow-player/bosun-action-step.js";
import { createPeople, type People } from "../../support/workflow-player/people.js";
import { createLifeMeter, type LifeMeter } from "../../support/life-meter.js";
import { startAppReplica } from "../../support/app-replica.js";
import { startWebhookFront } from "../../support/webhook-front.js";
import { testPrivateKey } from "../app/app-harness.js";

export const REPO = "acme/app";
export const OWNER_REPO = { owner: "acme", repo: "app" } as const;
export const APP_ID = 42;
export const BOT = "bosun[bot]";
const SECRET = "life-webhook-secret";
/** The command every brief of this repository names, and the acceptance workflow runs. */
export const ACCEPTANCE = "bash test/http/accept.sh";

const SHIPPED = ["bosun-work.yml", "bosun-work-item.yml", "bosun-acceptance.yml", "bosun-gate.yml", "bosun-separation.yml", "bosun-review-relay.yml", "bosun-verify.yml"];
// Deployments of this repository are made by `dana` (the deployer) and report their version on
// 127.0.0.1 (the test's version server); an item is done once its deployment is verified.
const config = (size: number): string => `pools:\n  default: {size: ${size}, dispatch: {kind: workflow, workflow: bosun-work.yml, batch: true}}\nlease: 10m\ndeployers: [dana]\nverify: {hosts: [127.0.0.1], required: true}\ndispatch_deadline: 20s\n`;

/** What the agent stand-in writes: in the brief (src/http/**) and, for an off-brief life, beside it. */
export function agentScript(extra: Record<string, string> = {}): string {
  const writes = { "src/http/retry.ts": "export const honorRetryAfter = true;\n", ...extra };
  return ["#!/usr/bin/env bash", "# The agent stand-in: edits files in its checkout and reports done.", "set -euo pipefail", ...Object.entries(writes).map(([path, content]) => `mkdir -p "$(dirname '${path}')" && printf '%s' '${content.replace(/'/g, "'\\''")}' > '${path}'`), 'printf \'{"kind":"done"}\' > "$BOSUN_RESULT"', ""].join("\n");
}

function shippedFiles(agent: string, poolSize: number): Record<string, string> {
  const files: Record<string, string> = {
    ".github/bosun.yml": config(poolSize),
    ".github/ISSUE_TEMPLATE/bosun-brief.yml": readFileSync(join(PROJECT_ROOT, ".github/ISSUE_TEMPLATE/bosun-brief.yml"), "utf8"),
    "scripts/run-agent.sh": agent,
    "test/http/accept.sh": "#!/usr/bin/env bash\nset -e\ngrep -q honorRetryAfter src/http/retry.ts\necho accepted\n",
    "src/http/client.ts": "export function request(): void {}\n",
    "README.md": "# app\n",
  };
  for (const name of SHIPPED) {
    let text = readFileSync(join(PROJECT_ROOT, "docs/workflows", name), "utf8");
    if (name === "bosun-acceptance.yml") {
      if (!text.includes("COMMAND: npm ci && npm test")) throw new Error("docs/workflows/bosun-acceptance.yml no longer sets COMMAND: npm ci && npm test; update life-world.ts");
      text = text.replace("COMMAND: npm ci && npm test", `COMMAND: ${ACCEPTANCE}`);
    }
    if (name === "bosun-verify.yml") {
      // This repository names its target per deployment (environment_url on an allowed host), as
      // the workflow's header says a team may, instead of one fixed url.
      const fixed = "          # The URL that reports the running version: set it to your production's.\n          url: https://shop.example.com/version\n";
      if (!text.includes(fixed)) throw new Error("docs/workflows/bosun-verify.yml no longer names its url as life-world.ts expects; update it");
      text = text.replace(fixed, "");
    }
    files[`.github/workflows/${name}`] = text;
  }
  return files;
}

/** The issue form's body for the retry brief, as GitHub renders a filed form. */
export function briefForm(over: Record<string, string> = {}): string {
  const sections: Record<string, string> = {
    Goal: "Honor Retry-After on 429 and 503 in the HTTP client wrapper.",
    "Allowed paths": "src/http/**\ntest/http/**",
    Constraints: "- keep the public request() signature",
    "Non-goals": "- exponential backoff",
    "Acceptance command": `\`\`\`shell\n${ACCEPTANCE}\n\`\`\``,
    "Acceptance timeout": "_No response_",
    "Size cap": "300",
    Priority: "P2",
    Due: "_No response_",
    Pool: "_No response_",
    Tier: "_No response_",
    ...over,
  };
  return Object.entries(sections)
    .map(([k, v]) => `### ${k}\n\n${v}`)
    .join("\n\n");
}

export interface Replica {
  readonly name: string;
  /** Kills the replica: from now on it answers no webhook and none of its requests reach GitHub. */
  kill(): void;
  readonly dead: boolean;
  /** Requests this replica sent to GitHub so far. */
  readonly requests: number;
  /**
   * Kills the replica at the first request of its that this says yes to, once GitHub has applied it:
   * the replica never hears the answer and sends nothing more (a crash right after a write).
   */
  killAfter(predicate: (method: string, url: string, body: string) => boolean): void;
}

/** A comment as it was posted (the fake forgets deleted ones; this does not). */
export interface PostedComment {
  readonly id: number;
  readonly issue: number;
  readonly user: string;
  readonly body: string;
}

/** One version of the dashboard issue's body as it was written, with what the fake held at that moment. */
export interface DashboardVersion {
  readonly idle: boolean;
  /** Open approved items not handed to a human when it was written: queued, claimed, in flight or with a PR open. */
  readonly busy: readonly number[];
  /** Those items' labels then, e.g. `#1 bosun:done,bosun:ready`. */
  readonly seen: string;
}

export interface Life {
  readonly fake: FakeGitHub;
  /** Every version of the dashboard the App wrote, in order (heard as it was written). */
  readonly dashboards: readonly DashboardVersion[];
  /** Every issue comment ever created, in order, deleted ones included (heard from the fake's events). */
  readonly posted: readonly PostedComment[];
  readonly actions: ActionsService;
  readonly people: People;
  readonly meter: LifeMeter;
  readonly replicas: readonly Replica[];
  /** Lets webhooks, the App and the workflow runs go until nothing is left to do. */
  settle(): Promise<void>;
  /** Every played run, one line each, with its failed jobs' reasons and last lines: for assertion messages. */
  explain(): string;
  close(): Promise<void>;
}

export interface LifeOptions {
  /** The agent script (default: in-brief). */
  readonly agent?: string;
  readonly replicas?: number;
  readonly seed?: number;
  /** Webhook deliveries' unkindness (redelivery, drop, reorder). */
  readonly deliveries?: { drop?: number; duplicate?: number; reorder?: boolean };
  /** Print every played step's output. */
  readonly verbose?: boolean;
  /** The pool's size (default 1): with more, the items approved together go out as one batch run. */
  readonly poolSize?: number;
  /** The App's timed sweep (`BOSUN_TICK_EVERY`), off by default: ticks then come from webhooks only. */
  readonly tickEveryMs?: number;
}

/** Starts the world: fake GitHub (wall clock), repository, people, App replicas, Actions. */
export async function startLife(options: LifeOptions = {}): Promise<Life> {
  const fake = await createFakeGitHub({ seed: options.seed ?? 1, clock: systemClock });
  fake.addRepo({ fullName: REPO, files: shippedFiles(options.agent ?? agentScript(), options.poolSize ?? 1), executable: ["scripts/run-agent.sh", "test/http/accept.sh"] });
  fake.addInstallation({ id: 501, appId: APP_ID, appSlug: "bosun", repos: [REPO] });
  fake.requireChecks(REPO, "main", [
    { context: "bosun/gate", appId: APP_ID },
    { context: "bosun/separation", appId: APP_ID },
  ]);
  const people = createPeople(fake, REPO);
  const workRoot = mkdtempSync(join(tmpdir(), "bosun-life-"));
  const actions = createActionsService({
    fake,
    repo: REPO,
    projectRoot: PROJECT_ROOT,
    // The runner runs the committed bundle; tests run the source (through tsx) unless asked.
    useDist: process.env["BOSUN_PLAYER_DIST"] === "1",
    workRoot,
    environments: {
      bosun: { secrets: { BOSUN_APP_CLIENT_ID: `Iv1.${APP_ID}`, BOSUN_APP_KEY: testPrivateKey() }, defaultBranchOnly: true },
      "bosun-agent": { secrets: { ANTHROPIC_API_KEY: "sk-ant-life-test-key" } },
    },
    ...(options.verbose === true ? { log: (line: string) => process.stdout.write(`${line}\n`) } : {}),
  });

  const replicas: Array<Replica & { url: string; close(): Promise<void> }> = [];
  for (let i = 0; i < (options.replicas ?? 1); i++) {
    let dead = false;
    let requests = 0;
    let killAfter: ((method: string, url: string, body: string) => boolean) | undefined;
    const replicaFetch: typeof fetch = async (input, init) => {
      const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
      const method = init?.method ?? "GET";
      if (dead) throw new Error(`replica ${i} is dead`);
      requests++;
      const answer = await fetch(input, init);
      if (killAfter?.(method, url, typeof init?.body === "string" ? init.body : "") === true) {
        dead = true;
        throw new Error(`replica ${i} died`);
      }
      return answer;
    };
    const started = await startAppReplica({ appId: APP_ID, baseUrl: fake.url, secret: SECRET, fetch: replicaFetch, app: { holder: `replica-${i}`, dashboardIntervalMs: 0, configMaxAgeMs: 0, heardJitterMs: 0, ...(options.tickEveryMs === undefined ? {} : { tickEveryMs: options.tickEveryMs }) } });
    const replica = {
      name: `replica-${i}`,
      url: started.url,
      close: () => started.close(),
      kill: () => {
        dead = true;
      },
      get dead() {
        return dead;
      },
      get requests() {
        return requests;
      },
      killAfter: (p: (method: string, url: string, body: string) => boolean) => {
        killAfter = p;
      },
    };
    replicas.push(replica);
  }
  // One webhook URL in front of the replicas, round robin over the live ones (a load balancer).
  const front = await startWebhookFront(() => replicas.filter((r) => !r.dead).map((r) => r.url));
  fake.webhooks.register({ url: front.url, secret: SECRET, events: ["issues", "issue_comment", "label", "workflow_run", "pull_request", "pull_request_review", "push", "create", "delete", "check_run", "status", "deployment_status"] });
  if (options.deliveries !== undefined) fake.webhooks.configure(options.deliveries);
  const meter = createLifeMeter(fake);
  const posted: PostedComment[] = [];
  const dashboards: DashboardVersion[] = [];
  fake.webhooks.tap(({ event, action, payload }) => {
    const body = (payload["issue"] as { body?: string | null } | undefined)?.body ?? "";
    if (event !== "issues" || (action !== "opened" && action !== "edited") || !body.startsWith(DASHBOARD_MARKER)) return;
    const open = [...fake.repo(REPO).issues.values()].filter((i) => !i.isPull && i.state === "open" && i.labels.includes("bosun:ready") && !i.labels.includes("bosun:needs-human"));
    dashboards.push({ idle: body.includes("**Idle**"), busy: open.map((i) => i.number), seen: open.map((i) => `#${i.number} ${[...i.labels].sort().join(",")}`).join("; ") });
  });
  fake.webhooks.tap(({ event, action, payload }) => {
    if (event !== "issue_comment" || action !== "created") return;
    const comment = payload["comment"] as { id: number; body: string; user: { login: string } };
    posted.push({ id: comment.id, issue: (payload["issue"] as { number: number }).number, user: comment.user.login, body: comment.body });
  });
  return {
    fake,
    posted,
    dashboards,
    actions,
    people,
    meter,
    replicas,
    settle: () => actions.runUntilQuiet(),
    explain: () =>
      actions.runs
        .map((r) => {
          const jobs = [...r.jobs.values()].map((job) => `${job.id}=${job.result}${job.result === "failure" ? ` (${job.reason ?? ""})\n      ${job.log.slice(-6).join("\n      ")}` : ""}`);
          return `  ${r.workflow.name} #${r.id} ${r.event} → ${r.conclusion ?? "pending"}: ${jobs.join(", ")}`;
        })
        .join("\n"),
    async close() {
      actions.close();
      await fake.close();
      for (const server of [front, ...replicas]) await server.close();
    },
  };
}
