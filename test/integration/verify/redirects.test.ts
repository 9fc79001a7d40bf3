/**
 * The HTTP probe follows a redirect only to the same scheme, host and port unless that origin is
 * allowed, and never forwards its authorization or custom headers to another origin. Judged by
 * what the second real loopback server received, not by what the probe says about itself.
 */
import type { IncomingHttpHeaders } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { createHttpProbe } from "../../../src/adapters/http/http-probe.js";
import { json, startVersionServer } from "./version-server.js";
import type { VersionServer } from "./version-server.js";

const servers: VersionServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function elsewhere(): Promise<{ server: VersionServer; seen: IncomingHttpHeaders[] }> {
  const seen: IncomingHttpHeaders[] = [];
  const server = await startVersionServer((_n, req, res) => {
    seen.push(req.headers);
    json(res, { version: "v2" });
  });
  servers.push(server);
  return { server, seen };
}

async function redirecting(to: (self: string) => string): Promise<{ server: VersionServer; seen: IncomingHttpHeaders[] }> {
  const seen: IncomingHttpHeaders[] = [];
  let self = "";
  const server = await startVersionServer((_n, req, res) => {
    seen.push(req.headers);
    if (req.url === "/final") return json(res, { version: "v2" });
    res.writeHead(302, { location: to(self) });
    res.end();
  });
  self = server.url;
  servers.push(server);
  return { server, seen };
}

const source = { kind: "field", path: "version" } as const;

describe("redirects", () => {
  it("a redirect to another origin is not followed, and the other origin never sees the secret header", async () => {
    const other = await elsewhere();
    const target = await redirecting(() => `${other.server.url}/version`);
    const probe = createHttpProbe({ url: `${target.server.url.replace("http://", "http://u:pw@")}/v`, source, headers: { "x-deploy-token": "s3cret" } });
    const outcome = await probe(1000);
    expect(outcome).toMatchObject({ kind: "unreachable", code: "http-status" });
    expect(outcome.kind === "unreachable" ? outcome.reason : "").toMatch(/redirects to http:\/\/127\.0\.0\.1:\d+, another origin/);
    expect(other.seen).toHaveLength(0);
  });

  it("a same-origin redirect is followed with its headers", async () => {
    const target = await redirecting((self) => `${self}/final`);
    const probe = createHttpProbe({ url: `${target.server.url}/v`, source, headers: { "x-deploy-token": "s3cret" } });
    expect(await probe(1000)).toMatchObject({ kind: "value", value: "v2" });
    expect(target.seen.map((h) => h["x-deploy-token"])).toEqual(["s3cret", "s3cret"]);
  });

  it("an allowed origin is followed, but without the custom header or credentials", async () => {
    const other = await elsewhere();
    const target = await redirecting(() => `${other.server.url}/version`);
    const probe = createHttpProbe({
      url: `${target.server.url.replace("http://", "http://u:pw@")}/v`,
      source,
      headers: { "x-deploy-token": "s3cret" },
      allowRedirectTo: [other.server.url],
    });
    expect(await probe(1000)).toMatchObject({ kind: "value", value: "v2" });
    expect(other.seen).toHaveLength(1);
    expect(other.seen[0]?.["x-deploy-token"]).toBeUndefined();
    expect(other.seen[0]?.authorization).toBeUndefined();
    expect(target.seen[0]?.authorization).toMatch(/^Basic /);
  });

  it("an endless redirect loop ends as unreachable after a bounded number of hops", async () => {
    const target = await redirecting((self) => `${self}/again`);
    const outcome = await createHttpProbe({ url: `${target.server.url}/v`, source })(2000);
    expect(outcome).toMatchObject({ kind: "unreachable", code: "http-status" });
    expect(target.server.hits()).toBeLessThanOrEqual(6);
  });
});
