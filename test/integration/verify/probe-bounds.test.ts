/**
 * What a target sends `bosun verify` is bounded: its body (after decoding, so a gzip bomb too) and
 * the version it reports, which every probe line quotes.
 */
import { PassThrough } from "node:stream";
import { createGzip } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { createHttpProbe, MAX_PROBE_BODY_BYTES } from "../../../src/adapters/http/http-probe.js";
import { main } from "../../../src/cli/main.js";
import { json, startVersionServer, type VersionServer } from "./version-server.js";

let server: VersionServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Writes `size` bytes of `byte` to `out` as fast as it takes them, then ends it. */
function pump(out: NodeJS.WritableStream, size: number, byte = 0x20): void {
  const chunk = Buffer.alloc(64 * 1024, byte);
  let sent = 0;
  const more = (): void => {
    while (sent < size) {
      sent += chunk.length;
      if (!out.write(chunk)) return void out.once("drain", more);
    }
    out.end();
  };
  more();
}

describe("bosun verify bounds what a target sends", () => {
  // Seen failing before the fix: the whole body was read (1 GB took 2.2 GB of memory).
  it("a body past the bound is refused as too large, and the rest is not read", async () => {
    let written = 0;
    server = await startVersionServer((_n, _req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"version": "v1", "pad": "');
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      const more = (): void => {
        // Stops on its own far past the bound, should the reader never stop.
        while (written < 256 * 1024 * 1024) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", more);
        }
        res.end('"}');
      };
      more();
    });
    const outcome = await createHttpProbe({ url: `${server.url}/version`, source: { kind: "field", path: "version" } })(60_000);
    expect(outcome).toMatchObject({ kind: "unreachable", code: "body-too-large" });
    expect(written).toBeLessThan(64 * 1024 * 1024);
  });

  it("a gzip body that inflates past the bound is refused after the bound, not inflated whole", async () => {
    server = await startVersionServer((_n, _req, res) => {
      res.writeHead(200, { "content-type": "text/plain", "content-encoding": "gzip" });
      const gzip = createGzip();
      gzip.pipe(res);
      // 64 MB of spaces compress to about 64 KB.
      pump(gzip, 64 * 1024 * 1024);
    });
    const outcome = await createHttpProbe({ url: `${server.url}/version`, source: { kind: "body" } })(60_000);
    expect(outcome).toMatchObject({ kind: "unreachable", code: "body-too-large" });
    expect(outcome.kind === "unreachable" ? outcome.reason : "").toContain(`more than ${MAX_PROBE_BODY_BYTES} bytes (decoded)`);
  });

  // Seen failing before the fix: a 1 MB version field was quoted whole in every probe line.
  it("a version field of half a megabyte (within the body bound) is not a version, and no line the CLI prints carries it", async () => {
    const huge = "v".repeat(512 * 1024);
    server = await startVersionServer((_n, _req, res) => json(res, { version: huge }));
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let printed = "";
    stdout.on("data", (c: Buffer) => (printed += c.toString()));
    stderr.on("data", (c: Buffer) => (printed += c.toString()));
    const code = await main(["verify", "--url", `${server.url}/version`, "--expect", "v2", "--field", "version", "--interval", "20ms", "--timeout", "2s", "--probe-timeout", "1s"], {
      stdout,
      stderr,
      stdin: new PassThrough(),
      env: { PATH: process.env["PATH"] },
      cwd: process.cwd(),
    });
    expect(code).toBe(3);
    expect(printed).toMatch(/version is 524288 characters, too long for a version/);
    for (const line of printed.split("\n")) expect(line.length, line.slice(0, 80)).toBeLessThan(1000);
  });
});
