import { PassThrough } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { main } from "../../../src/cli/main.js";
import { json, refusedPortUrl, startVersionServer } from "./version-server.js";
import type { VersionHandler, VersionServer } from "./version-server.js";

/** Runs `bosun ...` in-process with captured stdout and stderr. */
async function bosun(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = "";
  let err = "";
  stdout.on("data", (c: Buffer) => (out += c.toString()));
  stderr.on("data", (c: Buffer) => (err += c.toString()));
  const code = await main(args, { stdout, stderr, stdin: new PassThrough(), env: process.env, cwd: process.cwd() });
  return { code, stdout: out, stderr: err };
}

const fast = ["--interval", "20ms", "--timeout", "500ms", "--probe-timeout", "300ms", "--seed", "1"];

let server: VersionServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(handler: VersionHandler): Promise<string> {
  server = await startVersionServer(handler);
  return `${server.url}/version`;
}

describe("bosun verify", () => {
  it("exits 0 when verified, with progress on stderr and the verdict on stdout", async () => {
    const url = await serve((_n, _req, res) => json(res, { version: "v2" }));
    const run = await bosun(["verify", "--url", url, "--expect", "v2", "--field", "version", ...fast]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^verified: http:\/\/127\.0\.0\.1:\d+\/version reported v2 on 3 consecutive probe\(s\)/);
    expect(run.stderr).toContain("expecting v2 on 3 consecutive probe(s)");
    expect(run.stderr.match(/probe \d+: reports v2/g)).toHaveLength(3);
    expect(run.stderr).toMatch(/probe 3: reports v2 — streak 3\/3, verified/);
  });

  it("exits 1 on a target that keeps the old version, naming it", async () => {
    const url = await serve((_n, _req, res) => json(res, { version: "v1" }));
    const run = await bosun(["verify", "--url", url, "--expect", "v2", "--field", "version", ...fast]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^mismatch: .* reports v1, expected v2/);
  });

  it("exits 1 on a flapping target and says so", async () => {
    const url = await serve((n, _req, res) => json(res, { version: n % 2 === 0 ? "v2" : "v1" }));
    const run = await bosun(["verify", "--url", url, "--expect", "v2", "--field", "version", "--consecutive", "2", ...fast]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("flapping");
    expect(run.stdout).toContain("reports v1");
  });

  it("exits 3 when the port refuses connections", async () => {
    const url = await refusedPortUrl();
    const run = await bosun(["verify", "--url", url, "--expect", "v2", ...fast]);
    expect(run.code).toBe(3);
    expect(run.stdout).toMatch(/^unreachable: .*connection refused/);
    expect(run.stderr).toMatch(/no version: connection refused/);
  });

  it("exits 3 on a non-2xx answer", async () => {
    const url = await serve((_n, _req, res) => json(res, { error: "down" }, 502));
    const run = await bosun(["verify", "--url", url, "--expect", "v2", ...fast]);
    expect(run.code).toBe(3);
    expect(run.stdout).toContain("HTTP 502");
  });

  it("prints the verdict and evidence as JSON with --json", async () => {
    const url = await serve((_n, _req, res) => json(res, { version: "v2" }));
    const run = await bosun(["verify", "--url", url, "--expect", "v2", "--field", "/version", "--json", ...fast]);
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout) as { kind: string; evidence: { probes: number; recent: unknown[] } };
    expect(out.kind).toBe("verified");
    expect(out.evidence.probes).toBe(3);
    expect(out.evidence.recent).toHaveLength(3);
  });

  it("sends URL credentials as Basic auth and never prints the password", async () => {
    const auth: (string | undefined)[] = [];
    const url = await serve((_n, req, res) => {
      auth.push(req.headers.authorization);
      json(res, { version: "v2" });
    });
    const withCreds = url.replace("http://", "http://deploy:s3cret@");
    const run = await bosun(["verify", "--url", withCreds, "--expect", "v2", "--field", "version", ...fast]);
    expect(run.code).toBe(0);
    expect(auth[0]).toBe(`Basic ${Buffer.from("deploy:s3cret").toString("base64")}`);
    expect(run.stdout + run.stderr).not.toContain("s3cret");
    expect(run.stdout).toContain("deploy:***@");
  });

  it("probes with a command whose output is matched", async () => {
    const run = await bosun(["verify", "--command", "printf 'image: app:v2\\n'", "--expect", "v2", "--match", "app:(\\S+)", ...fast]);
    expect(run.code).toBe(0);
  });

  it.each([
    ["no --expect", ["--url", "http://127.0.0.1:1/v"], /--expect is required/],
    ["no target", ["--expect", "v2"], /--url \(or --command\) is required/],
    ["an unknown flag", ["--url", "http://127.0.0.1:1/v", "--expect", "v2", "--bogus"], /Unknown option '--bogus'/],
    ["a stray positional", ["http://127.0.0.1:1/v", "--expect", "v2"], /positional/],
    ["a bad duration", ["--url", "http://127.0.0.1:1/v", "--expect", "v2", "--interval", "often"], /--interval 'often'/],
  ])("exits 2 on %s, in two lines ending with where to get help", async (_name, args, message) => {
    const run = await bosun(["verify", ...args]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr.trimEnd().split("\n")).toHaveLength(2);
    expect(run.stderr.trimEnd().endsWith("Run 'bosun verify --help' for usage.")).toBe(true);
    expect(run.stdout).toBe("");
  });

  it("prints its usage on --help", async () => {
    const run = await bosun(["verify", "--help"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("--consecutive K");
  });
});
