import { Octokit } from "@octokit/rest";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createNodeMiddleware, createProbot } from "probot";
import { bosunApp } from "./app.js";
import { parseDuration } from "../core/brief/duration.js";

/** The process environment, or a literal in tests: the only place Bosun's app reads it. */
export type AppEnv = Readonly<Record<string, string | undefined>>;

export interface AppServer {
  /** `http://host:port` the server listens on. */
  readonly url: string;
  close(): Promise<void>;
}

/** An operator mistake in the environment, named by variable (never by value). */
export class AppEnvError extends Error {
  override readonly name = "AppEnvError";
}

/**
 * Starts the app with the usual Probot environment: `APP_ID`, `PRIVATE_KEY` (or
 * `PRIVATE_KEY_PATH`), `WEBHOOK_SECRET`, `GHE_HOST` (GitHub Enterprise), `PORT` (default 3000),
 * `HOST`, `WEBHOOK_PATH` (default `/api/github/webhooks`), `LOG_LEVEL`; `BOSUN_TICK_EVERY` (how
 * often every installed repository is reconciled, default 5m); plus `BOSUN_API_URL` to
 * point at any REST base URL (a GHE API path, or a fake GitHub in tests).
 */
export async function startAppServer(env: AppEnv): Promise<AppServer> {
  const missing = ["APP_ID", "WEBHOOK_SECRET"].filter((k) => (env[k] ?? "") === "");
  if ((env.PRIVATE_KEY ?? "") === "" && (env.PRIVATE_KEY_PATH ?? "") === "") missing.push("PRIVATE_KEY (or PRIVATE_KEY_PATH)");
  if (missing.length > 0) throw new AppEnvError(`missing environment: ${missing.join(", ")} (see docs/app.md)`);
  const baseUrl = env.BOSUN_API_URL;
  const probot = createProbot({ env: { ...env }, overrides: baseUrl === undefined || baseUrl === "" ? {} : { baseUrl } });
  const webhooksPath = env.WEBHOOK_PATH ?? "/api/github/webhooks";
  // Webhooks can be lost and leases run out silently: a timed sweep ticks every repository anyway.
  const tickEvery = parseDuration(env.BOSUN_TICK_EVERY ?? "5m");
  if (tickEvery === undefined || tickEvery <= 0) throw new AppEnvError(`BOSUN_TICK_EVERY must be a duration such as 90s or 5m`);
  // Copilot takes assignments only from a user-to-server token: one is optional, named by variable.
  const copilotToken = env.BOSUN_COPILOT_TOKEN ?? "";
  const copilot = copilotToken === "" ? undefined : new Octokit({ auth: copilotToken, ...(baseUrl === undefined || baseUrl === "" ? {} : { baseUrl }) });
  const middleware = await createNodeMiddleware((app) => bosunApp(app, { tickEveryMs: tickEvery * 1000, ...(copilot === undefined ? {} : { copilot }) }), { probot, webhooksPath });
  const server = createServer((req, res) => {
    if (req.method === "GET" && req.url === "/healthz") {
      res.writeHead(200, { "content-type": "text/plain" }).end("ok\n");
      return;
    }
    void middleware(req, res, () => {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found\n");
    });
  });
  const port = Number(env.PORT ?? 3000);
  const host = env.HOST ?? "0.0.0.0";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  probot.log.info(`Bosun app listening on ${host}:${address.port}${webhooksPath}`);
  return {
    url: `http://${host === "0.0.0.0" ? "127.0.0.1" : host}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
