/**
 * One replica of Bosun's Probot app as shipped (`bosunApp`), on its own Probot instance and its own
 * HTTP server on 127.0.0.1, its webhooks at `/api/github/webhooks`. Shared by the whole-life tests
 * (test/integration/life/) and `bench/api-economy-app.ts`, which put several behind one webhook URL
 * (`webhook-front.ts`).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { pino } from "pino";
import { createNodeMiddleware, Probot, ProbotOctokit } from "probot";
import { bosunApp, type BosunAppOptions } from "../../src/app/app.js";
import { testPrivateKey } from "../integration/app/app-harness.js";

export interface AppReplicaOptions {
  readonly appId: number;
  /** Where the replica's Octokit sends its requests: the fake GitHub, or a proxy in front of it. */
  readonly baseUrl: string;
  readonly secret: string;
  readonly app: BosunAppOptions;
  /** Instead of the global fetch: every request the replica sends goes through it. */
  readonly fetch?: typeof fetch;
}

export interface AppReplica {
  /** Its webhook URL. */
  readonly url: string;
  close(): Promise<void>;
}

export async function startAppReplica(options: AppReplicaOptions): Promise<AppReplica> {
  const replicaFetch = options.fetch;
  class Octokit extends ProbotOctokit {
    constructor(...args: ConstructorParameters<typeof ProbotOctokit>) {
      const o = args[0] ?? {};
      // Probot's write limiter spaces writes a second apart and its retries repeat failed requests:
      // off, as in the app harness (neither changes which requests a replica sends when none fails).
      super({ ...o, throttle: { ...o.throttle, enabled: false }, retry: { enabled: false }, ...(replicaFetch === undefined ? {} : { request: { ...o.request, fetch: replicaFetch } }) } as typeof o);
    }
  }
  const probot = new Probot({ appId: options.appId, privateKey: testPrivateKey(), secret: options.secret, baseUrl: options.baseUrl, log: pino({ level: process.env["DEBUG_PROBOT"] === undefined ? "silent" : "debug" }), Octokit: Octokit as unknown as typeof ProbotOctokit });
  const middleware = await createNodeMiddleware((app) => bosunApp(app, options.app), { probot, webhooksPath: "/api/github/webhooks" });
  const server: Server = createServer((req, res) => {
    void middleware(req, res, () => res.writeHead(404).end());
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/github/webhooks`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
