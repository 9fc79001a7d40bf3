import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../../..");

// The Action runs the committed dist/index.js, not src/: a stale bundle ships old behaviour.
// (The check-dist workflow does the same on GitHub.)
describe("dist/index.js", () => {
  it("is what `npm run bundle` builds from the current sources", () => {
    const out = join(mkdtempSync(join(tmpdir(), "bosun-dist-")), "index.js");
    const built = spawnSync(process.execPath, [join(ROOT, "scripts/bundle.js"), "--outfile", out], { encoding: "utf8" });
    expect(built.status, built.stderr).toBe(0);
    const fresh = readFileSync(out);
    const committed = readFileSync(join(ROOT, "dist/index.js"));
    expect(committed.equals(fresh), "dist/ is stale: run `npm run bundle` and commit dist/").toBe(true);
  }, 60_000);

  it("starts and names the modes when the mode is unknown", () => {
    const run = spawnSync(process.execPath, [join(ROOT, "dist/index.js")], { encoding: "utf8", env: { PATH: process.env["PATH"], INPUT_MODE: "nope" } });
    expect(run.stdout).toContain("::error::bosun: unknown mode 'nope'; expected one of: gate, separation, verify, schedule, work");
  });

  it.each(["gate", "separation", "verify", "schedule", "work"])("loads the %s mode and stops with a clear error when it has no token", (mode) => {
    // Each mode's code is loaded and started: a dependency the bundle leaves out (undici) must not be one a mode needs.
    const env = { PATH: process.env["PATH"], INPUT_MODE: mode, GITHUB_REPOSITORY: "acme/app", GITHUB_EVENT_NAME: "workflow_dispatch" };
    const run = spawnSync(process.execPath, [join(ROOT, "dist/index.js")], { encoding: "utf8", env });
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/^::error::bosun/m);
    expect(run.stdout + run.stderr).not.toMatch(/\n\s+at |undici|ProxyAgent/);
  });
});
