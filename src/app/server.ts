import { createOctokit } from "../adapters/github/create-octokit.js";
import { createPrivateKey } from "node:crypto";
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createNodeMiddleware, createProbot, type Logger } from "probot";
import { bosunApp } from "./app.js";
import { guardWebhookRequest } from "./guard-webhook-request.js";
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
export async function startAppServer(env: AppEnv, options: { readonly announce?: (line: string) => void; /** Instead of Probot's own (tests). */ readonly log?: Logger } = {}): Promise<AppServer> {
  const missing = ["APP_ID", "WEBHOOK_SECRET"].filter((k) => (env[k] ?? "") === "");
  if ((env.PRIVATE_KEY ?? "") === "" && (env.PRIVATE_KEY_PATH ?? "") === "") missing.push("PRIVATE_KEY (or PRIVATE_KEY_PATH)");
  if (missing.length > 0) throw new AppEnvError(`missing environment: ${missing.join(", ")} (see docs/app.md)`);
  if (!/^\d+$/.test(env.APP_ID ?? "")) throw new AppEnvError("APP_ID must be the app's numeric id (the App ID on the app's settings page), not its name or client id");
  const privateKey = await readPrivateKey(env);
  const baseUrl = env.BOSUN_API_URL;
  const probot = createProbot({ env: { ...env, PRIVATE_KEY: privateKey, PRIVATE_KEY_PATH: undefined }, overrides: { ...(baseUrl === undefined || baseUrl === "" ? {} : { baseUrl }), ...(options.log === undefined ? {} : { log: options.log }) } });
  await checkCredentials(probot, env.APP_ID ?? "");
  const webhooksPath = env.WEBHOOK_PATH ?? "/api/github/webhooks";
  // Webhooks can be lost and leases run out silently: a timed sweep ticks every repository anyway.
  const tickEvery = parseDuration(env.BOSUN_TICK_EVERY ?? "5m");
  if (tickEvery === undefined || tickEvery <= 0) throw new AppEnvError(`BOSUN_TICK_EVERY must be a duration such as 90s or 5m`);
  // Copilot takes assignments only from a user-to-server token: one is optional, named by variable.
  const copilotToken = env.BOSUN_COPILOT_TOKEN ?? "";
  const copilot = copilotToken === "" ? undefined : createOctokit({ auth: copilotToken, ...(baseUrl === undefined || baseUrl === "" ? {} : { baseUrl }) });
  const middleware = await createNodeMiddleware((app) => bosunApp(app, { tickEveryMs: tickEvery * 1000, ...(copilot === undefined ? {} : { copilot }) }), { probot, webhooksPath });
  const server = createServer((req, res) => {
    if (req.method === "GET" && req.url === "/healthz") {
      res.writeHead(200, { "content-type": "text/plain" }).end("ok\n");
      return;
    }
    const next = (): void => void res.writeHead(404, { "content-type": "text/plain" }).end("not found\n");
    if (req.method === "POST" && (req.url ?? "").split("?")[0] === webhooksPath) {
      // Bounded and signed before the webhooks middleware sees it: that one buffers any body,
      // and logged a whole unsigned one with its error.
      void guardWebhookRequest(req, res, env.WEBHOOK_SECRET ?? "", (line) => probot.log.warn(line)).then((body) => {
        if (body === undefined) return;
        // The middleware takes a body already read as a string (@octokit/webhooks getPayload).
        Object.assign(req, { body });
        void middleware(req, res, next);
      });
      return;
    }
    void middleware(req, res, next);
  });
  const port = Number(env.PORT ?? 3000);
  const host = env.HOST ?? "0.0.0.0";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const url = `http://${host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host}:${address.port}`;
  // Whatever LOG_LEVEL says, one line tells the operator where to point the app's webhook.
  const announce = options.announce ?? ((line: string) => void process.stdout.write(`${line}\n`));
  announce(`Bosun app listening on ${host}:${address.port}: webhooks at ${url}${webhooksPath}, health at ${url}/healthz`);
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The app's private key as PEM, from PRIVATE_KEY (PEM, PEM with `\n` escapes as many hosts store
 * it, or base64 of the PEM) or the file at PRIVATE_KEY_PATH, checked to be a private key so a bad
 * one is named at start rather than as "privateKey option is required" at the first event.
 */
async function readPrivateKey(env: AppEnv): Promise<string> {
  let text: string;
  let where: string;
  if ((env.PRIVATE_KEY ?? "") !== "") {
    where = "PRIVATE_KEY";
    text = (env.PRIVATE_KEY ?? "").trim();
    if (!text.includes("-----BEGIN") && /^[A-Za-z0-9+/=\s]+$/.test(text)) text = Buffer.from(text, "base64").toString("utf8").trim();
    text = text.replace(/\\n/g, "\n");
  } else {
    where = `PRIVATE_KEY_PATH (${env.PRIVATE_KEY_PATH ?? ""})`;
    try {
      text = await readFile(env.PRIVATE_KEY_PATH ?? "", "utf8");
    } catch (error) {
      throw new AppEnvError(`${where} cannot be read: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    }
  }
  try {
    createPrivateKey(text);
  } catch {
    throw new AppEnvError(`${where} is not a PEM private key: download one from the app's settings page (Private keys, Generate) and pass the whole .pem file`);
  }
  return text;
}

/** Asks GitHub who the app is (`GET /app`, by JWT): a key of another app or a wrong APP_ID stops the start, named. */
async function checkCredentials(probot: ReturnType<typeof createProbot>, appId: string): Promise<void> {
  try {
    const octokit = await probot.auth();
    await octokit.rest.apps.getAuthenticated();
  } catch (error) {
    const status = (error as { status?: number }).status;
    if (status === 401 || status === 404) throw new AppEnvError(`GitHub refused the app's credentials (HTTP ${status}): check that APP_ID ${appId} is the id of the app whose private key PRIVATE_KEY holds`);
    throw new AppEnvError(`cannot reach GitHub to check the app's credentials: ${error instanceof Error ? error.message : String(error)}`);
  }
}
