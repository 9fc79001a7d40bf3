import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { gateWorld, RUNNER_TOKEN } from "./gate-world.js";

// What a runner's step environment holds on a real pull_request run (names from the runner), with
// the workflow's own secrets handed to the step through `env:`.
const SECRETS: Record<string, string> = {
  GITHUB_TOKEN: RUNNER_TOKEN,
  ACTIONS_RUNTIME_TOKEN: "eyJruntime.token.value0123456789",
  ACTIONS_ID_TOKEN_REQUEST_TOKEN: "eyJoidc.request.token0123456789",
  ACTIONS_ID_TOKEN_REQUEST_URL: "https://pipelines.example/oidc?sig=oidcsig0123456789",
  ACTIONS_RESULTS_URL: "https://results.example/?sig=resultssig0123456789",
  ACTIONS_CACHE_URL: "https://cache.example/?sig=cachesig0123456789",
  "INPUT_GITHUB-TOKEN": RUNNER_TOKEN,
  "INPUT_REVIEWER-API-KEY": "sk-ant-reviewerkey0123456789abcdef",
  NPM_AUTH: "npm-auth-value-0123456789",
  DEPLOY_KEY: "deploy-key-value-0123456789",
  AWS_SECRET_ACCESS_KEY: "aws-secret-value-0123456789",
  DATABASE_URL: "postgres://app:dbpassword0123@db.internal/app",
};

let world: Awaited<ReturnType<typeof gateWorld>> | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

describe("the acceptance command of a fork's pull request", () => {
  it("sees no token and no secret: its environment is an allowlist (asserted from inside the command)", async () => {
    // The brief's command is trusted text (the approved snapshot); the PR's code is what it runs.
    world = await gateWorld({ command: (dir) => `env > '${dir}/env.txt'` });
    const envFile = join(world.scratch, "env.txt");
    const io = await world.run({}, { ...SECRETS, PATH: process.env["PATH"], HOME: "/home/runner", LANG: "C.UTF-8", CI: "true", GITHUB_WORKSPACE: world.checkout.dir, NODE_EXTRA: "not handed over" });
    const seen = readFileSync(envFile, "utf8");
    for (const [name, value] of Object.entries(SECRETS)) {
      expect(seen, `${name} reached the PR's code`).not.toContain(value);
      expect(seen).not.toMatch(new RegExp(`^${name.replace(/[-[\]]/g, "\\$&")}=`, "m"));
    }
    expect(seen).not.toContain("NODE_EXTRA");
    expect(seen).toMatch(/^PATH=/m);
    expect(seen).toMatch(/^HOME=\/home\/runner$/m);
    expect(seen).toMatch(/^CI=true$/m);
    expect(io.outputs["report"]).toBeDefined();
  });

  it("gets what the workflow hands over by name (input pass-env), and nothing else", async () => {
    world = await gateWorld({ command: (dir) => `env > '${dir}/env.txt'` });
    const envFile = join(world.scratch, "env.txt");
    await world.run({ "pass-env": "JAVA_HOME\nNODE_ENV" }, { ...SECRETS, PATH: process.env["PATH"], JAVA_HOME: "/opt/java", NODE_ENV: "test", OTHER: "x" });
    const seen = readFileSync(envFile, "utf8");
    expect(seen).toMatch(/^JAVA_HOME=\/opt\/java$/m);
    expect(seen).toMatch(/^NODE_ENV=test$/m);
    expect(seen).not.toMatch(/^OTHER=/m);
    expect(seen).not.toContain(RUNNER_TOKEN);
  });

  it("refuses to hand over the runner's own credentials even when named", async () => {
    world = await gateWorld({ command: (dir) => `env > '${dir}/env.txt'` });
    const envFile = join(world.scratch, "env.txt");
    const io = await world.run({ "pass-env": "GITHUB_TOKEN" }, { ...SECRETS, PATH: process.env["PATH"] });
    expect(io.failures.join("\n")).toMatch(/pass-env.*GITHUB_TOKEN/);
    expect(() => readFileSync(envFile, "utf8")).toThrow();
    expect([...world.fake.repo("acme/app").checkRuns.values()]).toEqual([]);
  });
});

