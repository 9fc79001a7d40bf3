import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { usdInput } from "../../../src/action/action-inputs.js";
import { modes } from "../../../src/action/modes.js";
import { createFakeGitHub } from "../../fake-github/create-fake-github.js";
import type { FakeGitHub } from "../../fake-github/create-fake-github.js";
import { memoryActionIo } from "../gate/memory-action-io.js";
import { gateWorld, REPO, RUNNER_TOKEN, text } from "./gate-world.js";

const ROOT = join(import.meta.dirname, "../../..");
let world: Awaited<ReturnType<typeof gateWorld>> | undefined;
let fake: FakeGitHub | undefined;
afterEach(async () => {
  await world?.close();
  await fake?.close();
  world = undefined;
  fake = undefined;
});

async function mode(name: string) {
  const load = modes[name];
  if (load === undefined) throw new Error(`no mode ${name}`);
  return load();
}

const checkRuns = () => [...(world?.fake.repo(REPO).checkRuns.values() ?? [])];

describe("one token input, github-token, in every mode", () => {
  it("verify uses github-token (the runner's environment has no GITHUB_TOKEN)", async () => {
    fake = await createFakeGitHub();
    fake.addRepo({ fullName: REPO });
    fake.addToken(RUNNER_TOKEN, "github-actions[bot]", { permissions: { [REPO]: "write" } });
    const sha = fake.repo(REPO).refs.get("refs/heads/main") ?? "";
    const io = memoryActionIo({ eventName: "workflow_dispatch", payload: {}, inputs: { "github-token": RUNNER_TOKEN, sha, url: "http://127.0.0.1:9/version", timeout: "50ms", interval: "10ms", "probe-timeout": "20ms", land: "false" }, env: { GITHUB_API_URL: fake.url } });
    await (await mode("verify")).run(io.io);
    expect(io.failures.join("\n")).not.toMatch(/no token/);
    // Independent evidence: the fake saw the verify mode act with that token.
    expect(fake.accounting.count({ login: "github-actions[bot]" })).toBeGreaterThan(0);
  });

  it("the deprecated alias `token` takes effect though github-token has its default", async () => {
    world = await gateWorld();
    // action.yml defaults github-token to the job's token; here that one is not allowed to post.
    const io = await world.run({ "github-token": "ghs_theDefaultJobToken000000000000000000", token: RUNNER_TOKEN }, { PATH: process.env["PATH"] });
    expect(checkRuns()).toHaveLength(1);
    expect(world.fake.accounting.count({ route: "POST /repos/{owner}/{repo}/check-runs", login: "github-actions[bot]" })).toBe(1);
    expect(io.logs.join("\n")).toMatch(/'token' is deprecated/);
  });
});

describe("booleans and numbers are validated, with an error naming the input", () => {
  it.each(["no", "off", "0", "yes", "tru"])("run-acceptance: %s is an error, and nothing runs or is posted", async (value) => {
    world = await gateWorld({ command: (dir) => `touch '${dir}/ran'` });
    const io = await world.run({ "run-acceptance": value }, { PATH: process.env["PATH"] });
    expect(io.failures).toHaveLength(1);
    expect(io.failures[0]).toContain(`input 'run-acceptance': '${value}' is not a boolean`);
    expect(() => readFileSync(join(world?.scratch ?? "", "ran"))).toThrow();
    expect(checkRuns()).toEqual([]);
    expect(world.fake.accounting.count()).toBe(0);
  });

  it.each(["False", "FALSE", "false"])("run-acceptance: %s skips the command (YAML 1.2 core booleans) and cannot pass", async (value) => {
    world = await gateWorld({ command: (dir) => `touch '${dir}/ran'` });
    const io = await world.run({ "run-acceptance": value }, { PATH: process.env["PATH"] });
    expect(() => readFileSync(join(world?.scratch ?? "", "ran"))).toThrow();
    expect(io.outputs["verdict"]).toBe("could-not-check");
  });

  it.each(["abc", "0", "-1", "1.5", "1e3", " 2x"])("required-approvals: %s is an error, and no status is posted", async (value) => {
    fake = await createFakeGitHub();
    fake.addRepo({ fullName: REPO });
    fake.addToken(RUNNER_TOKEN, "github-actions[bot]", { permissions: { [REPO]: "write" } });
    const pull = fake.addPull(REPO, { user: "claude[bot]" });
    const io = memoryActionIo({ eventName: "pull_request_target", payload: { pull_request: { number: pull.number, head: { sha: pull.headSha } } }, inputs: { "github-token": RUNNER_TOKEN, "required-approvals": value }, env: { GITHUB_API_URL: fake.url } });
    await (await mode("separation")).run(io.io);
    expect(io.failures.join("\n")).toContain(`input 'required-approvals': '${value.trim()}' is not a whole number`);
    expect(fake.repo(REPO).statuses).toEqual([]);
  });
});

describe("the gate's sensitive-paths input adds to the defaults", () => {
  it("a PR touching .github/ is still sensitive when the input names other paths", async () => {
    world = await gateWorld({ brief: { constraints: { paths: ["src/**", ".github/**"] } }, files: [text("src/http/client.ts"), text(".github/workflows/bosun-gate.yml")] });
    const io = await world.run({ "sensitive-paths": "secrets/**" }, { PATH: process.env["PATH"] });
    const report = JSON.parse(io.outputs["report"] ?? "{}") as { checks: { check: string; result: string }[] };
    expect(report.checks.find((c) => c.check === "sensitive")?.result).toBe("failed");
    expect(checkRuns()[0]?.conclusion).toBe("failure");
  });

  it("and the input's own paths are sensitive too", async () => {
    world = await gateWorld({ brief: { constraints: { paths: ["src/**", "secrets/**"] } }, files: [text("secrets/prod.env")] });
    const io = await world.run({ "sensitive-paths": "secrets/**" }, { PATH: process.env["PATH"] });
    const report = JSON.parse(io.outputs["report"] ?? "{}") as { checks: { check: string; result: string }[] };
    expect(report.checks.find((c) => c.check === "sensitive")?.result).toBe("failed");
  });
});

describe("could-not-check blocks and is told apart", () => {
  it("is published as failure (never neutral or skipped), titled 'could not check'", async () => {
    world = await gateWorld();
    await world.run({ "run-acceptance": "false" }, { PATH: process.env["PATH"] });
    const [run] = checkRuns();
    expect(run?.conclusion).toBe("failure");
    expect(run?.output?.title).toMatch(/could not check/);
    expect(run?.output?.title).not.toMatch(/^fail/);
  });
});

describe("action.yml declares what the code reads and writes", () => {
  const declared = parse(readFileSync(join(ROOT, "action.yml"), "utf8")) as { inputs: Record<string, unknown>; outputs: Record<string, unknown> };
  const sources = listSources(join(ROOT, "src/action")).map((f) => readFileSync(f, "utf8")).join("\n");

  it("every output a mode sets is declared", () => {
    const outputs = [...sources.matchAll(/setOutput\("([a-z-]+)"/g)].map((m) => m[1] ?? "");
    expect(outputs.length).toBeGreaterThan(5);
    for (const name of new Set(outputs)) expect(Object.keys(declared.outputs), `output '${name}'`).toContain(name);
  });

  it("every input a mode reads is declared", () => {
    const inputs = [...sources.matchAll(/(?:io\.input|listInput|booleanInput|integerInput|usdInput)\((?:io, )?"([a-z-]+)"/g)].map((m) => m[1] ?? "");
    expect(inputs.length).toBeGreaterThan(10);
    for (const name of new Set(inputs)) expect(Object.keys(declared.inputs), `input '${name}'`).toContain(name);
  });
});

describe("usdInput", () => {
  const io = (value: string) => memoryActionIo({ inputs: { "reserve-usd": value }, eventName: "workflow_dispatch", payload: {} }).io;
  it("reads an amount of dollars, and none when blank", () => {
    expect(usdInput(io("0.5"), "reserve-usd")).toEqual({ usd: 0.5 });
    expect(usdInput(io(" "), "reserve-usd")).toEqual({});
  });
  it.each(["0", "-1", "$2", "1e3", "lots", "Infinity"])("refuses %s, naming the input", (value) => {
    expect(() => usdInput(io(value), "reserve-usd")).toThrow(/input 'reserve-usd': .* is not an amount of US dollars above 0/);
  });
});

function listSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? listSources(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : []));
}
