/**
 * Three App replicas — real Probot and Octokit, HTTP both ways to the fake GitHub — hearing every
 * webhook at the same moment (one event delivered to all three at once, as when one event's
 * webhooks reach every replica) write one claim batch per grant round, not one each that all but
 * one lose (docs/scheduling.md, "Replicas at the same moment"). Judged from what the fake recorded:
 * the claim commits the bot created, the `updateRefs` it sent, the commits no ref ever took; and
 * claims stay exclusive (every approved item granted and dispatched exactly once).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { pino } from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { createNodeMiddleware, Probot, ProbotOctokit } from "probot";
import { createConfigLoader } from "../../../src/adapters/github/config-loader.js";
import { systemClock } from "../../../src/adapters/local/system-clock.js";
import { parseClaimMessage } from "../../../src/core/claims/claim-record.js";
import { registerScheduler } from "../../../src/app/scheduler/register-scheduler.js";
import type { AppOctokit } from "../../../src/app/app-octokit.js";
import { createFakeGitHub, type FakeGitHub } from "../../fake-github/create-fake-github.js";
import { createPrng } from "../../fake-github/prng.js";
import { createTestOctokit } from "../../fake-github/test-octokit.js";
import { testPrivateKey } from "../app/app-harness.js";
import { briefBody } from "./scheduler-fixture.js";

const REPO = "acme/app";
const BOT = "bosun[bot]";
const SECRET = "hush-heard-replicas";
const REPLICAS = 3;
const CONFIG = "pools:\n  default: {size: 20, dispatch: {kind: workflow, workflow: bosun-work.yml}}\nlease: 30m\n";

interface Fleet {
  readonly fake: FakeGitHub;
  /** Has the maintainer approve `count` new items; their webhooks are held until `deliver`. */
  approve(count: number): Promise<number[]>;
  /** Sends the held webhooks, each to every replica at once, and waits until all have answered. */
  deliver(): Promise<void>;
  close(): Promise<void>;
}

interface FleetOptions {
  readonly seed: number;
  readonly heardJitterMs: number;
  /** Replica i's wait before a heard tick (default: a timer). */
  readonly sleep?: (i: number) => (ms: number) => Promise<void>;
  /** Replica i's dashboard hook, called between its plan and its write. */
  readonly beforeApply?: (i: number) => Promise<void>;
  /** Each replica's answer to the delivery now going out, by replica. */
  readonly answers: Array<Promise<unknown>>;
}

async function startFleet(options: FleetOptions): Promise<Fleet> {
  const fake = await createFakeGitHub({ seed: options.seed });
  fake.addRepo({ fullName: REPO, files: { ".github/bosun.yml": CONFIG } });
  fake.addInstallation({ id: 501, appId: 42, appSlug: "bosun", repos: [REPO] });
  fake.addToken("t-maintainer", "mona", { permissions: { [REPO]: "maintain" } });
  fake.addWorkflow(REPO, { path: ".github/workflows/bosun-work.yml", name: "bosun work", runName: "bosun #${{ inputs.item }} epoch ${{ inputs.epoch }}" });
  fake.webhooks.configure({ hold: true });
  const maintainer = createTestOctokit(fake.url, "t-maintainer");
  const clock = { ...systemClock, now: () => fake.clock.now() };
  const servers: Server[] = [];
  const urls: string[] = [];
  for (let i = 0; i < REPLICAS; i++) {
    // Probot spaces writes a second apart and retries: off, as in the app harness.
    class Quick extends ProbotOctokit {
      constructor(...args: ConstructorParameters<typeof ProbotOctokit>) {
        const o = args[0] ?? {};
        super({ ...o, throttle: { ...o.throttle, enabled: false }, retry: { enabled: false } } as typeof o);
      }
    }
    const probot = new Probot({ appId: 42, privateKey: testPrivateKey(), secret: SECRET, baseUrl: fake.url, log: pino({ level: "silent" }), Octokit: Quick as unknown as typeof ProbotOctokit });
    const loader = createConfigLoader({ now: clock.now, maxAgeMs: 0 });
    const prng = createPrng(options.seed * 100 + i);
    const middleware = await createNodeMiddleware(
      (app) => {
        registerScheduler(app, {
          loadConfig: (octokit, owner, repo) => loader.load(octokit as unknown as AppOctokit, { owner, repo }),
          clock,
          journal: { append: () => undefined },
          botLogin: () => Promise.resolve(BOT),
          holder: `replica-${i}`,
          heardJitterMs: options.heardJitterMs,
          random: () => prng.next(),
          ...(options.sleep === undefined ? {} : { sleep: options.sleep(i) }),
          ...(options.beforeApply === undefined ? {} : { beforeApply: () => options.beforeApply?.(i) ?? Promise.resolve() }),
        });
      },
      { probot, webhooksPath: "/api/github/webhooks" },
    );
    const server = createServer((req, res) => void middleware(req, res, () => res.writeHead(404).end()));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    servers.push(server);
    urls.push(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/github/webhooks`);
  }
  // One delivery in, the same delivery to every replica at once; answered when all have answered.
  const fanOut = createServer((req, res) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const body = Buffer.concat(chunks).toString("utf8");
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string" && k !== "host" && k !== "content-length") headers[k] = v;
      for (const [i, url] of urls.entries()) options.answers[i] = fetch(url, { method: "POST", headers, body }).then((a) => a.text());
      await Promise.all(options.answers);
      res.writeHead(200).end();
    })().catch(() => res.writeHead(502).end());
  });
  await new Promise<void>((r) => fanOut.listen(0, "127.0.0.1", r));
  servers.push(fanOut);
  fake.webhooks.register({ url: `http://127.0.0.1:${(fanOut.address() as AddressInfo).port}/api/github/webhooks`, secret: SECRET, events: ["issues", "workflow_run", "pull_request", "check_run"] });
  let nextId = 0;
  return {
    fake,
    async approve(count) {
      const numbers: number[] = [];
      for (let k = 0; k < count; k++) {
        const id = `item-${nextId++}`;
        const issue = fake.addIssue(REPO, { title: `Work on ${id}`, body: briefBody(id), user: "tia" });
        await maintainer.issues.addLabels({ owner: "acme", repo: "app", issue_number: issue.number, labels: ["bosun:ready"] });
        numbers.push(issue.number);
      }
      return numbers;
    },
    deliver: () => fake.webhooks.flush(),
    async close() {
      await fake.close();
      for (const server of servers) {
        server.closeAllConnections();
        await new Promise<void>((r) => server.close(() => r()));
      }
    },
  };
}

/** What the bot did to the claims after a log position: commits created, ref updates sent and refused, commits no ref took. */
function claimWrites(fake: FakeGitHub, since: number): { commits: number; updateRefs: number; lost: number } {
  const log = fake.accounting.log.filter((e) => e.seq > since && e.login === BOT);
  const commits = log.filter((e) => e.route === "POST /repos/{owner}/{repo}/git/commits");
  const updates = log.filter((e) => e.route === "POST /graphql" && e.kind === "create");
  const repo = fake.repo(REPO);
  const taken = new Set<string>();
  const walk = [...repo.refs].filter(([ref]) => ref.startsWith("refs/bosun/")).map(([, sha]) => sha);
  for (let sha = walk.pop(); sha !== undefined; sha = walk.pop()) {
    if (taken.has(sha)) continue;
    taken.add(sha);
    walk.push(...(repo.commits.get(sha)?.parents ?? []));
  }
  const lost = [...repo.commits.values()].filter((c) => c.message.startsWith("bosun claim") && !taken.has(c.sha)).length;
  // A refused updateRefs leaves the refs where they were: its commit is one no ref took.
  return { commits: commits.length, updateRefs: updates.length, lost };
}

/** Every approved item: held at epoch 1 and dispatched exactly once. */
function expectExclusive(fake: FakeGitHub, numbers: readonly number[]): void {
  const repo = fake.repo(REPO);
  for (const n of numbers) {
    const ref = `refs/bosun/claims/${n}`;
    const sha = repo.refs.get(ref);
    const record = sha === undefined ? undefined : parseClaimMessage(repo.commits.get(sha)?.message ?? "", ref);
    expect({ n, state: record?.state, epoch: record?.epoch }).toEqual({ n, state: "held", epoch: 1 });
    expect({ n, runs: [...repo.workflowRuns.values()].filter((r) => r.inputs["item"] === String(n)).length }).toEqual({ n, runs: 1 });
  }
}

const last = (fake: FakeGitHub): number => fake.accounting.log.at(-1)?.seq ?? 0;

let fleet: Fleet | undefined;
afterEach(async () => {
  await fleet?.close();
  fleet = undefined;
});

describe("three replicas hearing one webhook at the same moment", () => {
  it.each([1, 2])("start at jittered moments: one claim batch per grant round, none lost (seed %i)", async (seed) => {
    const answers: Array<Promise<unknown>> = [];
    // The replicas' jittered waits, ended in the order of their draws, each once the replica before
    // it has answered its delivery: the order the draws give, whatever the machine's speed.
    let waiting: Array<{ i: number; ms: number; go: () => void }> = [];
    const release = async (): Promise<void> => {
      const order = waiting.sort((a, b) => a.ms - b.ms);
      waiting = [];
      for (const w of order) {
        w.go();
        await answers[w.i];
      }
    };
    const sleep = (i: number) => (ms: number) =>
      new Promise<void>((go) => {
        waiting.push({ i, ms, go });
        if (waiting.length === REPLICAS) void release();
      });
    fleet = await startFleet({ seed, heardJitterMs: 1_500, sleep, answers });
    const approved: number[] = [];
    for (let round = 0; round < 3; round++) {
      const from = last(fleet.fake);
      approved.push(...(await fleet.approve(2)));
      await fleet.deliver();
      const writes = claimWrites(fleet.fake, from);
      expect({ round, commits: writes.commits, updateRefs: writes.updateRefs, lost: writes.lost }).toEqual({ round, commits: 1, updateRefs: 1, lost: 0 });
      expectExclusive(fleet.fake, approved);
    }
  });

  it("a replica whose claims another wrote while it planned drops its batch unwritten", async () => {
    const answers: Array<Promise<unknown>> = [];
    // No jitter: all three gather the same state at once; replicas 1 and 2 write only after
    // replica 0 has answered its delivery (its batch written), so their batches are stale.
    fleet = await startFleet({ seed: 3, heardJitterMs: 0, answers, beforeApply: async (i) => void (i === 0 ? undefined : await answers[0]) });
    const from = last(fleet.fake);
    const approved = await fleet.approve(2);
    await fleet.deliver();
    const writes = claimWrites(fleet.fake, from);
    expect({ commits: writes.commits, updateRefs: writes.updateRefs, lost: writes.lost }).toEqual({ commits: 1, updateRefs: 1, lost: 0 });
    expectExclusive(fleet.fake, approved);
  });
});
