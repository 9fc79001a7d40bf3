/**
 * A redirect from https down to plain http is not followed unless that http origin is allowed, and
 * even then the probe's authorization and custom headers stay behind. The https and the http
 * server share one loopback port, so the scheme is the only thing that differs: a check on host
 * and port alone would follow the downgrade. Judged by what the server received on each protocol,
 * not by what the probe says about itself.
 */
import { execFile, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer as createHttpServer } from "node:http";
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { createServer as createNetServer } from "node:net";
import type { AddressInfo, Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProbeOutcome } from "../../../src/core/verify/probe-outcome.js";

const CHILD = join(import.meta.dirname, "probe-in-child.ts");
const source = { kind: "field", path: "version" } as const;

interface Seen {
  readonly scheme: "https" | "http";
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
}

let dir = "";
let cert = "";
let port = 0;
const seen: Seen[] = [];
let close: () => Promise<void> = async () => {};

/** A self-signed certificate for 127.0.0.1, made for this run (no key is kept in the repository). */
function makeCertificate(into: string): { key: string; cert: string } {
  const keyPath = join(into, "key.pem");
  const certPath = join(into, "cert.pem");
  const args = ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", keyPath, "-out", certPath];
  const run = spawnSync("openssl", args, { encoding: "utf8" });
  if (run.error !== undefined || run.status !== 0) throw new Error(`this test needs openssl to make a certificate: ${run.error?.message ?? run.stderr}`);
  return { key: readFileSync(keyPath, "utf8"), cert: certPath };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "bosun-https-"));
  const made = makeCertificate(dir);
  cert = made.cert;
  const handle = (scheme: Seen["scheme"]) => (req: IncomingMessage, res: ServerResponse) => {
    seen.push({ scheme, path: req.url ?? "", headers: req.headers });
    const to = (path: string) => res.writeHead(302, { location: path }).end();
    if (scheme === "https" && req.url === "/down") return to(`http://127.0.0.1:${port}/version`);
    if (scheme === "https" && req.url === "/same") return to(`https://127.0.0.1:${port}/version`);
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ version: `${scheme}-v2` }));
  };
  const https = createHttpsServer({ key: made.key, cert: readFileSync(cert) }, handle("https"));
  const http = createHttpServer(handle("http"));
  // One port for both: a TLS connection starts with a handshake record (byte 22), plain HTTP with a method.
  const sockets = new Set<Socket>();
  const front = createNetServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.once("data", (first) => {
      socket.pause();
      socket.unshift(first);
      (first[0] === 22 ? https : http).emit("connection", socket);
      process.nextTick(() => socket.resume());
    });
  });
  await new Promise<void>((resolve) => front.listen(0, "127.0.0.1", resolve));
  port = (front.address() as AddressInfo).port;
  close = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      front.close(() => resolve());
    });
});

afterAll(async () => {
  await close();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs each probe in a child that trusts the test's certificate; returns the outcomes and what the server saw. */
async function probeAll(probes: readonly object[]): Promise<{ outcomes: ProbeOutcome[]; seen: Seen[] }> {
  seen.length = 0;
  // Asynchronously: the servers answering the child live in this process's event loop.
  const run = await promisify(execFile)(process.execPath, ["--import", "tsx", CHILD, JSON.stringify(probes)], {
    encoding: "utf8",
    timeout: 30_000,
    env: { ...process.env, NODE_EXTRA_CA_CERTS: cert },
  });
  const lines = run.stdout.trim().split("\n");
  return { outcomes: JSON.parse(lines[lines.length - 1] ?? "[]") as ProbeOutcome[], seen: [...seen] };
}

describe("a redirect from https to http", () => {
  it("is not followed: the http side of the same host and port never sees a request", async () => {
    const { outcomes, seen } = await probeAll([{ url: `https://u:pw@127.0.0.1:${port}/down`, source, headers: { "x-deploy-token": "s3cret" } }]);
    expect(outcomes[0]).toMatchObject({ kind: "unreachable", code: "http-status" });
    const reason = outcomes[0]?.kind === "unreachable" ? outcomes[0].reason : "";
    expect(reason).toContain(`redirects to http://127.0.0.1:${port}, another origin than https://127.0.0.1:${port}`);
    expect(seen.map((s) => `${s.scheme} ${s.path}`)).toEqual(["https /down"]);
    expect(seen[0]?.headers["x-deploy-token"]).toBe("s3cret");
  });

  it("is followed when that http origin is allowed, without the custom header or credentials", async () => {
    const { outcomes, seen } = await probeAll([
      { url: `https://u:pw@127.0.0.1:${port}/down`, source, headers: { "x-deploy-token": "s3cret" }, allowRedirectTo: [`http://127.0.0.1:${port}`] },
    ]);
    expect(outcomes[0]).toMatchObject({ kind: "value", value: "http-v2" });
    expect(seen.map((s) => `${s.scheme} ${s.path}`)).toEqual(["https /down", "http /version"]);
    expect(seen[1]?.headers["x-deploy-token"]).toBeUndefined();
    expect(seen[1]?.headers.authorization).toBeUndefined();
    expect(seen[0]?.headers.authorization).toMatch(/^Basic /);
  });

  it("allowing the https origin does not allow its http downgrade; an https redirect on the same origin is followed", async () => {
    const { outcomes, seen } = await probeAll([
      { url: `https://127.0.0.1:${port}/down`, source, allowRedirectTo: [`https://127.0.0.1:${port}`] },
      { url: `https://127.0.0.1:${port}/same`, source, headers: { "x-deploy-token": "s3cret" } },
    ]);
    expect(outcomes[0]).toMatchObject({ kind: "unreachable", code: "http-status" });
    expect(outcomes[1]).toMatchObject({ kind: "value", value: "https-v2" });
    expect(seen.map((s) => `${s.scheme} ${s.path}`)).toEqual(["https /down", "https /same", "https /version"]);
    expect(seen[2]?.headers["x-deploy-token"]).toBe("s3cret");
  });
});
