import { describe, expect, it } from "vitest";
import { createCommandProbe } from "../../../src/adapters/local/command-probe.js";

describe("command probe", () => {
  it("reads the trimmed stdout as the version", async () => {
    const probe = createCommandProbe({ command: "echo '  v2  '", source: { kind: "body" } });
    expect(await probe(2000)).toMatchObject({ kind: "value", value: "v2", detail: "exit 0, body" });
  });

  it("reads a JSON field of the output (kubectl -o json style)", async () => {
    const probe = createCommandProbe({
      command: `echo '{"status":{"image":"app:v2"}}'`,
      source: { kind: "field", path: "status.image" },
    });
    expect(await probe(2000)).toMatchObject({ kind: "value", value: "app:v2" });
  });

  it("a non-zero exit is could-not-check, without echoing stderr", async () => {
    const probe = createCommandProbe({ command: "echo token=hunter2 >&2; exit 4", source: { kind: "body" } });
    const outcome = await probe(2000);
    expect(outcome).toEqual({ kind: "unreachable", code: "command-failed", reason: "the command exited 4" });
  });

  it("a command that hangs is killed at the timeout, children included", async () => {
    const started = Date.now();
    const probe = createCommandProbe({ command: "sleep 60 | cat", source: { kind: "body" } });
    expect(await probe(100)).toMatchObject({ kind: "unreachable", code: "timeout" });
    // Far below the command's own 60 s, however busy the machine: the timeout ended it.
    expect(Date.now() - started).toBeLessThan(20_000);
  });

  it("passes the environment it is given", async () => {
    const probe = createCommandProbe({ command: 'printf %s "$APP_VERSION"', source: { kind: "body" }, env: { PATH: process.env["PATH"], APP_VERSION: "v9" } });
    expect(await probe(2000)).toMatchObject({ kind: "value", value: "v9" });
  });
});
