import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough, Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { commands } from "../../../src/cli/commands.js";
import { main } from "../../../src/cli/main.js";
import { formatConfigProblems } from "../../../src/core/config/format-config-problems.js";
import { parseConfig } from "../../../src/core/config/parse-config.js";

const TRACES = new URL("../../fixtures/traces/", import.meta.url).pathname;

async function bosun(args: string[], cwd = process.cwd(), stdin = ""): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const sink = (to: string[]) => new Writable({ write: (c: Buffer | string, _e, cb) => (to.push(String(c)), cb()) });
  const input = new PassThrough();
  input.end(stdin);
  const code = await main(args, { stdout: sink(out), stderr: sink(err), stdin: input, env: {}, cwd });
  return { code, out: out.join(""), err: err.join("") };
}

const names = Object.keys(commands);

describe("one CLI convention, gh's", () => {
  it.each(names)("bosun help %s prints what the command's --help prints, and exits 0", async (name) => {
    const viaHelp = await bosun(["help", name]);
    const viaFlag = await bosun([name, "--help"]);
    expect(viaHelp.code).toBe(0);
    expect(viaHelp.out).toBe(viaFlag.out);
    expect(viaHelp.out).toMatch(new RegExp(`^Usage: bosun ${name}`));
  });

  it("bosun help with an unknown topic, and an unknown command, say so in two lines", async () => {
    for (const args of [["help", "nope"], ["nope"]]) {
      const run = await bosun(args);
      expect(run.code).toBe(2);
      expect(run.err).toBe("bosun: unknown command 'nope'\nRun 'bosun help' for the commands.\n");
    }
  });

  // An unknown flag, then a bad value of a real one, for every command.
  it.each([
    ["drain", ["--bogus"], /Unknown option '--bogus'/],
    ["drain", ["--dry-run", "--pool", "0"], /--pool must be a whole number above 0/],
    ["brief", ["check"], /check needs a FILE/],
    ["brief", ["lint", "x"], /unknown subcommand 'lint'/],
    ["gate", [], /--brief FILE is required/],
    ["verify", ["--expect", "v2"], /--url \(or --command\) is required/],
    ["replay", [], /no TRACE given/],
    ["replay", ["x.csv", "--json", "--format", "html"], /--json and --format html disagree/],
    ["stats", ["--format", "xml"], /--format must be table or json/],
    ["trace", ["gitlab"], /the one trace source is 'github'/],
    ["config", ["lint"], /unknown subcommand 'lint'/],
  ])("bosun %s %j: the problem in one line, then where to get help", async (name, args, message) => {
    const run = await bosun([name, ...args]);
    expect(run.code).toBe(2);
    const lines = run.err.trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(message);
    expect(lines[1]).toBe(`Run 'bosun ${name} --help' for usage.`);
    expect(run.out).toBe("");
  });

  it("--json is the one JSON flag: replay and stats take it, and --format json stays its alias", async () => {
    const replay = ["replay", "beads_events_claim_trace.csv", "--workers", "4", "--policy", "oldest"];
    const a = await bosun([...replay, "--json"], TRACES);
    const b = await bosun([...replay, "--format", "json"], TRACES);
    expect(a.code).toBe(0);
    expect(JSON.parse(a.out)).toEqual(JSON.parse(b.out));
    const dir = await mkdtemp(join(tmpdir(), "bosun-stats-"));
    await writeFile(join(dir, "j.jsonl"), `${JSON.stringify({ v: 1, t: "2026-01-01T00:00:00.000Z", event: "CLAIM", item: "x", holder: "h", epoch: 1 })}\n`);
    const s1 = await bosun(["stats", "--journal", "j.jsonl", "--json"], dir);
    const s2 = await bosun(["stats", "--journal", "j.jsonl", "--format", "json"], dir);
    expect(s1.code).toBe(0);
    // The same report but for the moment each was made at: the money lines say when "now" was,
    // and which UTC day and week the ledger's figures are of.
    const at = (out: string) => {
      const report = JSON.parse(out) as { money: { now?: string; ledger?: unknown } };
      delete report.money.now;
      delete report.money.ledger;
      return report;
    };
    expect(at(s1.out)).toEqual(at(s2.out));
  });

  it("a brief whose keys carry terminal escapes is reported with them escaped, never raw", async () => {
    const run = await bosun(["brief", "check", "-"], process.cwd(), "goal: x\n\u001b]0;pwned\u0007\u001b[2J: 1\n");
    expect(run.code).toBe(1);
    expect(run.err).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(run.err).toContain("\\x1b");
  });
});

describe("bosun config check", () => {
  async function repo(text: string | undefined): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), "bosun-config-"));
    if (text !== undefined) {
      await mkdir(join(dir, ".github"));
      await writeFile(join(dir, ".github", "bosun.yml"), text);
    }
    return dir;
  }

  it("accepts a valid file at the default path and says when nothing will dispatch", async () => {
    const ok = await bosun(["config", "check"], await repo("pools: { default: { size: 2, dispatch: { kind: workflow, workflow: w.yml } } }\n"));
    expect(ok.code).toBe(0);
    expect(ok.out).toContain(".github/bosun.yml: valid");
    expect(ok.out).not.toContain("nothing will be dispatched");
    const idle = await bosun(["config", "check"], await repo("policy: oldest\n"));
    expect(idle.code).toBe(0);
    expect(idle.out).toContain("nothing will be dispatched");
  });

  it("prints exactly the problems the App's parser finds, one a line, and exits 1", async () => {
    const text = "polcy: hybrid\nlease: often\npools: { default: { size: 1.5, dispatch: { kind: email } }, Big: { size: 1, dispatch: { kind: comment } } }\n";
    const run = await bosun(["config", "check"], await repo(text));
    expect(run.code).toBe(1);
    const parsed = parseConfig(text);
    if (parsed.ok) throw new Error("the file should be invalid");
    const lines = run.err.trimEnd().split("\n");
    expect(lines[0]).toBe(`.github/bosun.yml: invalid (${parsed.problems.length} problems)`);
    expect(lines.slice(1).map((l) => l.trim())).toEqual(formatConfigProblems(parsed.problems));
    expect(lines.some((l) => /lease: lease/.test(l))).toBe(false);
    const json = await bosun(["config", "check", ".github/bosun.yml", "--json"], await repo(text));
    expect(json.code).toBe(1);
    expect(JSON.parse(json.out)).toMatchObject({ valid: false, problems: parsed.problems });
  });

  it("a file that cannot be read is a usage error naming it", async () => {
    const run = await bosun(["config", "check"], await repo(undefined));
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/^bosun config: cannot read \.github\/bosun\.yml: no such file \(without one the App uses the defaults/);
  });
});
