import { afterEach, describe, expect, it } from "vitest";
import { createGateCommand } from "../../../src/cli/commands/gate.js";
import type { GateReport } from "../../../src/core/gate/gate-report.js";
import { lines, memoryIo, TempRepo } from "./temp-repo.js";

const gate = createGateCommand();
let repo: TempRepo;

/** A repo with `main` holding src/http/client.ts, and a `work` branch checked out. */
function setup(brief: string, baseFiles: Record<string, string> = {}): TempRepo {
  repo = new TempRepo();
  for (const [path, content] of Object.entries(baseFiles)) repo.write(path, content);
  repo.write("src/http/client.ts", lines(10)).write("README.md", "# x\n").write("brief.yml", brief).commit("base");
  repo.git("checkout", "-q", "-b", "work");
  return repo;
}

const BRIEF = (command = "true", extra = "") => `id: http-retry-after
goal: Honor Retry-After.
constraints:
  paths: [src/http/**, test/http/**]
acceptance:
  command: ${JSON.stringify(command)}
  timeout: 5s
size_cap: 50
${extra}`;

async function run(...args: string[]): Promise<{ code: number; report: GateReport; io: ReturnType<typeof memoryIo> }> {
  const io = memoryIo(repo.dir);
  const code = await gate.run(["--brief", "brief.yml", "--base", "main", "--json", ...args], io);
  return { code, report: JSON.parse(io.out()) as GateReport, io };
}

const result = (report: GateReport, check: string) => report.checks.find((c) => c.check === check);

afterEach(() => repo.remove());

describe("bosun gate over a real git repository", () => {
  it("passes a clean change inside the brief (exit 0)", async () => {
    setup(BRIEF("test -f src/http/retry.ts")).write("src/http/retry.ts", lines(20)).write("test/http/retry.test.ts", lines(5)).commit("work");
    const { code, report } = await run();
    expect(report.checks.map((c) => [c.check, c.result])).toEqual([["acceptance", "passed"], ["diff", "passed"], ["paths", "passed"], ["size", "passed"], ["sensitive", "passed"]]);
    expect(report.verdict).toBe("pass");
    expect(code).toBe(0);
  });

  it("fails an off-brief file and names it (exit 1)", async () => {
    setup(BRIEF()).write("src/http/retry.ts", lines(2)).write("src/db/pool.ts", lines(2)).commit("work");
    const { code, report } = await run();
    expect(result(report, "paths")?.result).toBe("failed");
    expect(result(report, "paths")?.evidence).toContain("src/db/pool.ts");
    expect(result(report, "paths")?.evidence).not.toContain("retry.ts");
    expect(code).toBe(1);
  });

  it("names failing paths in the text output too", async () => {
    setup(BRIEF()).write("lib/other.ts", "x\n").commit("work");
    const io = memoryIo(repo.dir);
    expect(await gate.run(["--brief", "brief.yml", "--base", "main"], io)).toBe(1);
    expect(io.out()).toContain("lib/other.ts");
    expect(io.out()).toContain("verdict: fail");
  });

  it("fails over the size cap (exit 1)", async () => {
    setup(BRIEF()).write("src/http/big.ts", lines(51)).commit("work");
    const { code, report } = await run();
    expect(result(report, "size")?.evidence).toBe("51 changed lines > size_cap 50");
    expect(code).toBe(1);
  });

  it("does not count a lock file beside its manifest at the base against the cap", async () => {
    setup(BRIEF("true").replace("[src/http/**, test/http/**]", "[src/http/**, package-lock.json]"), { "package.json": "{}\n" }).write("src/http/a.ts", lines(10)).write("package-lock.json", lines(5000)).commit("work");
    const { code, report } = await run();
    expect(result(report, "size")?.evidence).toBe("10 changed lines (5010 − 5000 in ignored package-lock.json) ≤ size_cap 50");
    expect(code).toBe(0);
  });

  it("counts a lock file with no manifest beside it at the base", async () => {
    setup(BRIEF("true").replace("[src/http/**, test/http/**]", "[src/http/**, package-lock.json]")).write("src/http/a.ts", lines(10)).write("package-lock.json", lines(5000)).commit("work");
    const { code, report } = await run();
    expect(result(report, "size")?.result).toBe("failed");
    expect(result(report, "size")?.evidence).toContain("no package.json beside it at the base");
    expect(code).toBe(1);
  });

  it("fails a rename out of the allowed paths, naming the new name", async () => {
    setup(BRIEF()).move("src/http/client.ts", "lib/client.ts").commit("work");
    const { code, report } = await run();
    expect(result(report, "paths")?.result).toBe("failed");
    expect(result(report, "paths")?.evidence).toContain("lib/client.ts");
    expect(result(report, "diff")?.result).toBe("passed");
    expect(code).toBe(1);
  });

  it("fails a rename into the allowed paths from outside, naming the old name", async () => {
    setup(BRIEF()).move("README.md", "src/http/README.md").commit("work");
    const { report } = await run();
    expect(result(report, "paths")?.evidence).toContain("README.md");
    expect(result(report, "paths")?.annotations[0]?.message).toContain("renamed away from");
  });

  it("fails when the acceptance command exits non-zero, with its exit code and last lines", async () => {
    setup(BRIEF("echo first; for i in $(seq 1 30); do echo out $i; done; echo boom >&2; exit 7")).write("src/http/a.ts", "x\n").commit("work");
    const { code, report } = await run();
    const acceptance = result(report, "acceptance");
    expect(acceptance?.result).toBe("failed");
    expect(acceptance?.evidence).toContain("exited 7");
    expect(acceptance?.evidence).toContain("boom");
    expect(acceptance?.evidence).toContain("out 12\n");
    expect(acceptance?.evidence).not.toContain("out 10\n");
    expect(code).toBe(1);
  });

  it("fails a timed-out acceptance command and kills its whole process group", async () => {
    setup(BRIEF("sleep 30 & sleep 30; echo never", "").replace("timeout: 5s", "timeout: 1s")).write("src/http/a.ts", "x\n").commit("work");
    const started = Date.now();
    const { code, report } = await run();
    expect(result(report, "acceptance")?.evidence).toContain("did not finish within its timeout of 1s");
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(code).toBe(1);
  });

  it("redacts secrets from the acceptance output and hides tokens from the command", async () => {
    setup(BRIEF('echo "token=${GITHUB_TOKEN:-unset}"; echo ghp_abcdefghijklmnopqrstuvwxyz0123456789; exit 1')).write("src/http/a.ts", "x\n").commit("work");
    const io = memoryIo(repo.dir, { PATH: process.env["PATH"], GITHUB_TOKEN: "s3cr3t-value" });
    await gate.run(["--brief", "brief.yml", "--base", "main", "--json"], io);
    expect(io.out()).toContain("token=unset");
    expect(io.out()).not.toContain("ghp_abcdef");
    expect(io.out()).not.toContain("s3cr3t-value");
  });

  it("flags a sensitive path as needing a human (exit 1) even when the brief allows it", async () => {
    setup(BRIEF().replace("[src/http/**, test/http/**]", '["**"]')).write(".github/workflows/ci.yml", "on: push\n").commit("work");
    const { code, report } = await run();
    expect(result(report, "sensitive")?.result).toBe("failed");
    expect(report.needs_human).toBe(true);
    expect(code).toBe(1);
  });

  it("runs the acceptance command on --head in a temporary worktree when it is not checked out", async () => {
    setup(BRIEF("test -f src/http/retry.ts")).write("src/http/retry.ts", "x\n").commit("work");
    repo.git("checkout", "-q", "main");
    const { code, report } = await run("--head", "work");
    expect(result(report, "acceptance")?.result).toBe("passed");
    expect(code).toBe(0);
    expect(repo.git("worktree", "list")).not.toContain("bosun-gate-");
  });

  it("marks a binary file binary rather than missing its patch", async () => {
    setup(BRIEF()).write("src/http/logo.png", "\u0000\u0001binary\u0000").commit("work");
    const { report } = await run("--no-acceptance");
    expect(result(report, "diff")?.result).toBe("passed");
    expect(result(report, "acceptance")?.result).toBe("could-not-check");
    expect(report.verdict).toBe("could-not-check");
  });

  it("runs a configured command reviewer in blocking mode: a violated non-goal fails (exit 1)", async () => {
    setup(BRIEF("true", "non_goals: [exponential backoff]")).write("src/http/retry.ts", "backoff *= 2\n").commit("work");
    const answer = JSON.stringify({ items: [{ id: "N1", verdict: "violated", evidence: [{ path: "src/http/retry.ts", line: 1, why: "doubles the delay" }] }] });
    const io = memoryIo(repo.dir, { PATH: process.env["PATH"], BOSUN_REVIEWER: "command", BOSUN_REVIEW_MODE: "blocking", BOSUN_REVIEWER_COMMAND: `cat >/dev/null; printf '%s' '${answer}'` });
    expect(await gate.run(["--brief", "brief.yml", "--base", "main", "--json"], io)).toBe(1);
    const report = JSON.parse(io.out()) as GateReport;
    expect(result(report, "review")?.result).toBe("failed");
    expect(result(report, "paths")?.result).toBe("passed");
  });

  it.each([
    [["--brief"], 2],
    [["--base", "main"], 2],
    [["--brief", "missing.yml"], 2],
  ])("answers %j with usage exit %i", async (args, exit) => {
    setup(BRIEF());
    expect(await gate.run(args, memoryIo(repo.dir))).toBe(exit);
  });

  it("cannot check an unknown base (exit 3) or an invalid brief (exit 3)", async () => {
    setup("goal: x\n");
    expect(await gate.run(["--brief", "brief.yml", "--base", "main"], memoryIo(repo.dir))).toBe(3);
    repo.write("ok.yml", BRIEF()).commit("brief");
    const io = memoryIo(repo.dir);
    expect(await gate.run(["--brief", "ok.yml", "--base", "nope"], io)).toBe(3);
    expect(io.err()).toContain("nope");
  });
});
