/**
 * `bosun brief check -`: the valid is not refused (a YAML brief holding `### …` comments or a
 * string with ```yaml; an issue body starting with a byte-order mark), the impossible is not
 * accepted (an --id that breaks the id rule). Driven in-process through the command's run().
 */
import { PassThrough, Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import brief from "../../../src/cli/commands/brief.js";

async function check(input: string, args: string[] = []): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = "";
  let err = "";
  stdout.on("data", (b: Buffer) => (out += b.toString()));
  stderr.on("data", (b: Buffer) => (err += b.toString()));
  const code = await brief.run(["check", "-", ...args], { stdout, stderr, stdin: Readable.from([Buffer.from(input)]), env: {}, cwd: process.cwd() });
  return { code, stdout: out, stderr: err };
}

const YAML = "goal: Do a thing.\nconstraints: {paths: [src/**]}\nacceptance: {command: npm test}\nsize_cap: 300\n";
const FORM = "### Goal\n\nDo a thing.\n\n### Allowed paths\n\nsrc/**\n\n### Acceptance command\n\nnpm test\n\n### Size cap\n\n300\n";

describe("bosun brief check - (stdin)", () => {
  it("a YAML brief holding a '### ...' comment is a valid YAML brief", async () => {
    const run = await check(`### Section: what this brief is for\n${YAML}`);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ brief: { goal: "Do a thing.", id: "stdin" } });
  });

  it("a YAML brief whose note contains ```yaml is a valid YAML brief", async () => {
    const run = await check(`${YAML}non_goals: ["rewriting the \`\`\`yaml examples"]\n`);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
  });

  it("an issue body that starts with a byte-order mark is read as the form it is", async () => {
    const run = await check(`\uFEFF${FORM}`);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ brief: { goal: "Do a thing.", size_cap: 300 } });
  });

  it("a YAML brief that starts with a byte-order mark is valid", async () => {
    expect((await check(`\uFEFF${YAML}`)).code).toBe(0);
  });

  it("an issue body is still read as an issue body", async () => {
    const run = await check(FORM);
    expect(run.code).toBe(0);
  });

  it("--id 'a b!' is refused naming the id (exit 1), not turned into claim key task:a b!", async () => {
    const run = await check(YAML, ["--id", "a b!"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/id:? 'a b!'/);
    expect(run.stdout).toBe("");
  });
});
