/**
 * A stateful fake GitHub speaking HTTP on 127.0.0.1, for the real `@octokit/rest`, Probot and
 * `@actions/github` clients (point their `baseUrl` at `fake.url`).
 *
 * @example
 * const fake = await createFakeGitHub();
 * fake.addRepo({ fullName: "acme/app" });
 * fake.addToken("t-maintainer", "mona", { permissions: { "acme/app": "write" } });
 * const octokit = new Octokit({ auth: "t-maintainer", baseUrl: fake.url });
 * await fake.close();
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createAccounting, type Accounting } from "./accounting.js";
import { allRoutes } from "./all-routes.js";
import { createManualClock, type Clock } from "./clock.js";
import { createSeed, type Seed } from "./create-seed.js";
import { createWebhooks, type Webhooks } from "./create-webhooks.js";
import { createFaults, type Faults } from "./faults.js";
import { handleRequest, type RequestDeps } from "./handle-request.js";
import { createMatcher } from "./match-route.js";
import { createPrng } from "./prng.js";
import { createState, type FakeState } from "./state.js";

export interface FakeGitHubOptions {
  /** Timestamps and stale-read windows; default a manual clock at 2026-01-01T00:00:00Z. */
  clock?: Clock;
  /** Seed of the PRNG behind faults and webhook drop/duplicate/reorder (default 1). */
  seed?: number;
}

export interface FakeGitHub extends Seed {
  /** `http://127.0.0.1:<port>`: give it to Octokit as `baseUrl`. */
  url: string;
  /** The whole world, as plain data (read it in assertions; prefer the seed helpers to change it). */
  state: FakeState;
  clock: Clock;
  faults: Faults;
  accounting: Accounting;
  webhooks: Webhooks;
  /** Waits for queued webhook deliveries, then stops the server. */
  close(): Promise<void>;
}

export async function createFakeGitHub(options: FakeGitHubOptions = {}): Promise<FakeGitHub> {
  const clock = options.clock ?? createManualClock();
  const state = createState(clock);
  const prng = createPrng(options.seed ?? 1);
  const faults = createFaults(prng);
  const accounting = createAccounting();
  const webhooks = createWebhooks(state, prng);
  const deps: RequestDeps = { state, matcher: createMatcher(allRoutes), faults, accounting, webhooks, staleWindows: new Map(), history: new Map() };
  const server = createServer((req, res) => {
    void handleRequest(deps, req, res);
  });
  // Octokit keeps connections alive; let close() end them instead of waiting 5 s for idle sockets.
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  state.baseUrl = `http://127.0.0.1:${port}`;
  return {
    ...createSeed(state, webhooks),
    url: state.baseUrl,
    state,
    clock,
    faults,
    accounting,
    webhooks,
    async close() {
      await webhooks.flush();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
