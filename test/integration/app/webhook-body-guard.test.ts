/**
 * The webhook URL is reachable by anyone: a body past GitHub's 25 MB cap is refused before it is
 * buffered, an unsigned or wrongly signed one is refused without its body reaching any log, and a
 * signed delivery still goes through.
 */
import { createHmac } from "node:crypto";
import { request } from "node:http";
import { inspect } from "node:util";
import { afterEach, describe, expect, test } from "vitest";
import type { Logger } from "probot";
import { startAppServer, type AppServer } from "../../../src/app/server.js";
import { MAX_WEBHOOK_BYTES } from "../../../src/app/guard-webhook-request.js";
import { startHarness, testPrivateKey, WEBHOOK_SECRET, type Harness } from "./app-harness.js";

let h: Harness | undefined;
let server: AppServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  await h?.close();
});

/** A logger that keeps every call, deeply printed (error objects with every property they carry). */
function recordingLog(): { log: Logger; text: () => string } {
  const lines: string[] = [];
  const log: Record<string, unknown> = {};
  for (const level of ["trace", "debug", "info", "warn", "error", "fatal"]) log[level] = (...args: unknown[]) => void lines.push(args.map((a) => inspect(a, { depth: Infinity, maxStringLength: Infinity })).join(" "));
  log["child"] = () => log;
  log["level"] = "trace";
  return { log: log as unknown as Logger, text: () => lines.join("\n") };
}

async function start(): Promise<{ url: string; logged: () => string }> {
  h = await startHarness();
  const { log, text } = recordingLog();
  server = await startAppServer({ APP_ID: "42", PRIVATE_KEY: testPrivateKey(), WEBHOOK_SECRET, BOSUN_API_URL: h.fake.url, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "trace" }, { announce: () => {}, log });
  return { url: `${server.url}/api/github/webhooks`, logged: text };
}

const headers = (body: string, signature?: string): Record<string, string> => ({
  "content-type": "application/json",
  "x-github-event": "issues",
  "x-github-delivery": "d-1",
  ...(signature === undefined ? {} : { "x-hub-signature-256": signature }),
  ...(body === "" ? {} : { "content-length": String(Buffer.byteLength(body)) }),
});

/** Sends `size` bytes in chunks with no Content-Length; resolves with the status, or "reset" if the server hung up first. */
function streamBody(url: string, size: number): Promise<number | "reset"> {
  return new Promise((resolve) => {
    const req = request(url, { method: "POST", headers: { ...headers(""), "x-hub-signature-256": "sha256=00", "transfer-encoding": "chunked" } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", () => resolve("reset"));
    const chunk = Buffer.alloc(1024 * 1024, 0x61);
    let sent = 0;
    const pump = (): void => {
      while (sent < size) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
      req.end();
    };
    pump();
  });
}

describe("the webhook URL, reached by anyone", () => {
  // Seen failing before the fix: the body was read whole, then its error logged with the payload in it.
  test("a wrongly signed delivery is refused with 401 and its body reaches no log", async () => {
    const { url, logged } = await start();
    const body = JSON.stringify({ action: "opened", marker: "BODY-MARKER-7f3a".repeat(100) });
    const res = await fetch(url, { method: "POST", headers: headers(body, `sha256=${"0".repeat(64)}`), body });
    expect(res.status).toBe(401);
    expect(logged()).toContain("webhook delivery d-1 refused (401)");
    expect(logged()).not.toContain("BODY-MARKER-7f3a");
  });

  test("a delivery with no signature is refused with 400, body unlogged", async () => {
    const { url, logged } = await start();
    const body = JSON.stringify({ marker: "BODY-MARKER-nosig" });
    const res = await fetch(url, { method: "POST", headers: headers(body), body });
    expect(res.status).toBe(400);
    expect(logged()).not.toContain("BODY-MARKER-nosig");
  });

  // Seen failing before the fix: the whole body was buffered and answered 400 for its signature.
  test("a declared Content-Length past 25 MB is refused with 413 before any of it is read", async () => {
    const { url } = await start();
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(url, { method: "POST", headers: { ...headers(""), "x-hub-signature-256": "sha256=00", "content-length": String(MAX_WEBHOOK_BYTES + 1) } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", reject);
      // Only a little is sent: the answer must not wait for the rest.
      req.write("{");
    });
    expect(status).toBe(413);
  });

  test("a chunked body that runs past 25 MB is refused with 413 (or cut off), never handed on", async () => {
    const { url, logged } = await start();
    const status = await streamBody(url, MAX_WEBHOOK_BYTES + 4 * 1024 * 1024);
    expect([413, "reset"]).toContain(status);
    expect(logged()).toMatch(/refused \(413\)/);
  });

  test("a correctly signed delivery still reaches the app", async () => {
    const { url } = await start();
    const body = JSON.stringify({ zen: "Keep it logically awesome.", hook_id: 1 });
    const signature = `sha256=${createHmac("sha256", WEBHOOK_SECRET).update(body).digest("hex")}`;
    const res = await fetch(url, { method: "POST", headers: { ...headers(body, signature), "x-github-event": "ping" }, body });
    expect(res.status).toBe(200);
  });
});
