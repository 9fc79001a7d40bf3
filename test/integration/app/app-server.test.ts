/** What `npm start` tells an operator: where it listens, and what is wrong with its credentials, by name. */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, test } from "vitest";
import { AppEnvError, startAppServer } from "../../../src/app/server.js";
import { startHarness, testPrivateKey, WEBHOOK_SECRET, type Harness } from "./app-harness.js";

let h: Harness | undefined;
afterEach(async () => h?.close());

const env = (fakeUrl: string, over: Record<string, string | undefined> = {}) => ({ APP_ID: "42", PRIVATE_KEY: testPrivateKey(), WEBHOOK_SECRET, BOSUN_API_URL: fakeUrl, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "fatal", ...over });

describe("npm start", () => {
  test("prints one start-up line with the full webhook and health URLs, whatever LOG_LEVEL says; /healthz answers 200", async () => {
    h = await startHarness();
    const lines: string[] = [];
    const server = await startAppServer(env(h.fake.url), { announce: (l) => lines.push(l) });
    try {
      expect(lines).toEqual([`Bosun app listening on 127.0.0.1:${new URL(server.url).port}: webhooks at ${server.url}/api/github/webhooks, health at ${server.url}/healthz`]);
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const health = await fetch(`${server.url}/healthz`);
      expect([health.status, await health.text()]).toEqual([200, "ok\n"]);
    } finally {
      await server.close();
    }
  });

  test("a private key with its newlines escaped, as hosts store it, is accepted", async () => {
    h = await startHarness();
    const server = await startAppServer(env(h.fake.url, { PRIVATE_KEY: testPrivateKey().replace(/\n/g, "\\n") }), { announce: () => {} });
    await server.close();
  });

  test.each([
    ["a PRIVATE_KEY that is not a key", { PRIVATE_KEY: "not-a-key-secret-material" }, /^PRIVATE_KEY is not a PEM private key/],
    ["a PRIVATE_KEY_PATH that does not exist", { PRIVATE_KEY: undefined, PRIVATE_KEY_PATH: "/nonexistent/bosun.pem" }, /^PRIVATE_KEY_PATH \(\/nonexistent\/bosun\.pem\) cannot be read: ENOENT/],
    ["an APP_ID that is a name", { APP_ID: "bosun" }, /^APP_ID must be the app's numeric id/],
  ])("%s stops the start with an error naming it, never its value", async (_name, over, message) => {
    h = await startHarness();
    const start = startAppServer(env(h.fake.url, over), { announce: () => {} });
    const error = await start.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AppEnvError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain("secret-material");
  });

  // The fake GitHub takes any JWT (it cannot know a key); GitHub answers a key of another app with 401.
  test("credentials GitHub refuses (401 on GET /app) stop the start, saying which variables to check", async () => {
    const refusing = createServer((req, res) => res.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ message: "A JSON web token could not be decoded" })));
    await new Promise<void>((r) => refusing.listen(0, "127.0.0.1", r));
    try {
      const url = `http://127.0.0.1:${(refusing.address() as AddressInfo).port}`;
      await expect(startAppServer(env(url, { APP_ID: "999" }), { announce: () => {} })).rejects.toThrow(/^GitHub refused the app's credentials \(HTTP 401\): check that APP_ID 999 is the id of the app whose private key PRIVATE_KEY holds$/);
    } finally {
      refusing.closeAllConnections();
      await new Promise<void>((r) => refusing.close(() => r()));
    }
  });
});
