import { afterEach, describe, expect, it } from "vitest";
import { createHttpProbe } from "../../../src/adapters/http/http-probe.js";
import { systemClock } from "../../../src/adapters/local/system-clock.js";
import type { VerifyVerdict } from "../../../src/core/verify/converge.js";
import type { VersionSource } from "../../../src/core/verify/read-version.js";
import { runVerification } from "../../../src/core/verify/run-verification.js";
import { json, refusedPortUrl, startVersionServer } from "./version-server.js";
import type { VersionHandler, VersionServer } from "./version-server.js";

// Real loopback HTTP, real clock, short intervals. The deadlines are loose: a busy machine can take a
// second to answer a loopback request, and only the cases that wait for a deadline take that long.
const fast = {
  expected: "v2",
  consecutive: 3,
  timeoutMs: 5000,
  intervalMs: 20,
  attemptTimeoutMs: 2000,
  backoff: { baseMs: 20, factor: 2, maxMs: 80, jitter: 0.5 },
  seed: 1,
};

let server: VersionServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function verifyAgainst(
  handler: VersionHandler,
  source: VersionSource = { kind: "field", path: "version" },
  config: Partial<typeof fast> = {},
): Promise<VerifyVerdict> {
  server = await startVersionServer(handler);
  return runVerification({ probe: createHttpProbe({ url: `${server.url}/version`, source }), clock: systemClock, config: { ...fast, ...config } });
}

describe("verify over real loopback HTTP", () => {
  it("the right version at once: verified after exactly K probes", async () => {
    const verdict = await verifyAgainst((_n, _req, res) => json(res, { version: "v2" }));
    expect(verdict).toMatchObject({ kind: "verified", value: "v2", evidence: { probes: 3, bestStreak: 3 } });
    expect(server?.hits()).toBe(3);
  });

  it("the version changing after a delay: verified once the new version holds", async () => {
    const started = Date.now();
    // A generous deadline: this case must not depend on how busy the machine is.
    const verdict = await verifyAgainst(
      (_n, _req, res) => json(res, { version: Date.now() - started < 150 ? "v1" : "v2" }),
      { kind: "field", path: "version" },
      { timeoutMs: 10_000 },
    );
    expect(verdict.kind).toBe("verified");
    expect(verdict.evidence.seen.map((s) => s.value)).toEqual(["v1", "v2"]);
  });

  it("a server flapping between versions: mismatch, flapping, naming the other version", async () => {
    const verdict = await verifyAgainst((n, _req, res) => json(res, { version: n % 2 === 0 ? "v1" : "v2" }));
    expect(verdict).toMatchObject({ kind: "mismatch", flapping: true, reported: "v1" });
    expect(verdict.reason).toMatch(/at most 1 in a row \(needs 3\)/);
  });

  it("a server that always reports the old version: mismatch naming it", async () => {
    const verdict = await verifyAgainst((_n, _req, res) => json(res, { version: "v1" }));
    expect(verdict).toMatchObject({ kind: "mismatch", flapping: false, reported: "v1" });
    expect(verdict.reason).toContain("the target reports v1, expected v2");
  });

  it("a refused port: unreachable, connection refused", async () => {
    const url = await refusedPortUrl();
    const verdict = await runVerification({
      probe: createHttpProbe({ url, source: { kind: "body" } }),
      clock: systemClock,
      config: fast,
    });
    expect(verdict).toMatchObject({ kind: "unreachable", code: "refused" });
    expect(verdict.reason).toContain("connection refused");
  });

  it("a server that hangs: unreachable by timeout, within the overall deadline", async () => {
    const started = Date.now();
    const verdict = await verifyAgainst(() => {
      // Never answers: the probe's own timeout must end each attempt.
    });
    expect(verdict).toMatchObject({ kind: "unreachable", code: "timeout" });
    expect(verdict.reason).toMatch(/no answer within \d+ ms/);
    // Bounded by the deadline, not the server: loosely, so that a busy machine does not fail it.
    expect(Date.now() - started).toBeLessThan(3 * fast.timeoutMs);
    expect(verdict.evidence.probes).toBeGreaterThanOrEqual(2);
  });

  it("a server that sends headers then stalls the body also times out", async () => {
    const verdict = await verifyAgainst((_n, _req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"version":');
    });
    expect(verdict).toMatchObject({ kind: "unreachable", code: "timeout" });
  });

  it("a non-2xx answer: unreachable with the status, even when the body carries a version", async () => {
    const verdict = await verifyAgainst((_n, _req, res) => json(res, { version: "v2" }, 503));
    expect(verdict).toMatchObject({ kind: "unreachable", code: "http-status" });
    expect(verdict.reason).toContain("HTTP 503");
  });

  it("a body that is not JSON: could not check", async () => {
    const verdict = await verifyAgainst((_n, _req, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.end("<html>maintenance</html>");
    });
    expect(verdict).toMatchObject({ kind: "unreachable", code: "not-json" });
  });

  it("a field that is missing: could not check, naming the field", async () => {
    const verdict = await verifyAgainst((_n, _req, res) => json(res, { build: { sha: "v2" } }));
    expect(verdict).toMatchObject({ kind: "unreachable", code: "field-missing" });
    expect(verdict.reason).toContain("field 'version' is missing");
  });

  it("reads the version from a response header", async () => {
    const verdict = await verifyAgainst(
      (_n, _req, res) => {
        res.writeHead(204, { "x-app-version": "v2" });
        res.end();
      },
      { kind: "header", name: "X-App-Version" },
    );
    expect(verdict.kind).toBe("verified");
  });

  it("reads the version with a regular expression over the body, via a JSON pointer-free page", async () => {
    const verdict = await verifyAgainst(
      (_n, _req, res) => {
        res.writeHead(200, { "content-type": "text/plain" });
        res.end("app ok\nrevision: v2\n");
      },
      { kind: "regex", pattern: "revision: (\\S+)" },
    );
    expect(verdict.kind).toBe("verified");
  });

  it("asks caches not to answer for the target", async () => {
    const seen: (string | undefined)[] = [];
    await verifyAgainst((_n, req, res) => {
      seen.push(req.headers["cache-control"]);
      json(res, { version: "v2" });
    });
    expect(seen).toEqual(["no-cache", "no-cache", "no-cache"]);
  });

  it("uses an injected fetch when given one", async () => {
    const calls: string[] = [];
    const fakeFetch: typeof fetch = async (input) => {
      calls.push(String(input));
      return new Response(JSON.stringify({ version: "v2" }), { status: 200 });
    };
    const verdict = await runVerification({
      probe: createHttpProbe({ url: "http://example.invalid/version", source: { kind: "field", path: "version" }, fetch: fakeFetch }),
      clock: systemClock,
      config: fast,
    });
    expect(verdict.kind).toBe("verified");
    expect(calls).toHaveLength(3);
  });
});
