import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { gateWorld, REPO } from "./gate-world.js";

// The documented two-job gate: the PR's code ran in a job with nothing to steal, and only its
// result, a JSON file, reaches the job that decides (input acceptance-result).
let world: Awaited<ReturnType<typeof gateWorld>> | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

async function judge(result: (sha: string, command: string) => unknown) {
  world = await gateWorld({ command: (dir) => `touch '${dir}/ran-here'` });
  const command = `touch '${world.scratch}/ran-here'`;
  const file = join(world.scratch, "acceptance-result.json");
  const content = result(world.pull.headSha, command);
  writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content));
  const io = await world.run({ "acceptance-result": file }, { PATH: process.env["PATH"] });
  const report = JSON.parse(io.outputs["report"] ?? "{}") as { checks: { check: string; result: string; evidence: string }[] };
  const acceptance = report.checks.find((c) => c.check === "acceptance");
  const runs = [...world.fake.repo(REPO).checkRuns.values()];
  return { io, acceptance, runs, ranHere: existsSync(join(world.scratch, "ran-here")) };
}

describe("the gate judges an acceptance result handed over as data", () => {
  it("a passing result for the judged commit and the brief's command passes, and nothing runs in the deciding job", async () => {
    const { acceptance, runs, ranHere } = await judge((sha, command) => ({ bosun_acceptance: 1, sha, command, exit_code: 0, seconds: 3, tail: "ok" }));
    expect(acceptance?.result).toBe("passed");
    expect(ranHere).toBe(false);
    expect(runs[0]?.conclusion).toBe("success");
  });

  it("a failing result fails", async () => {
    const { acceptance, runs } = await judge((sha, command) => ({ bosun_acceptance: 1, sha, command, exit_code: 1, tail: "1 failed" }));
    expect(acceptance?.result).toBe("failed");
    expect(runs[0]?.conclusion).toBe("failure");
  });

  it("a result for another commit cannot pass", async () => {
    const { acceptance, ranHere } = await judge((_sha, command) => ({ bosun_acceptance: 1, sha: "b".repeat(40), command, exit_code: 0 }));
    expect(acceptance?.result).toBe("could-not-check");
    expect(ranHere).toBe(false);
  });

  it("a result for another command than the brief's cannot pass", async () => {
    const { acceptance } = await judge((sha) => ({ bosun_acceptance: 1, sha, command: "true", exit_code: 0 }));
    expect(acceptance?.result).toBe("could-not-check");
  });

  it.each([["not JSON", () => "exit 0"], ["a missing file", () => undefined]])("%s cannot pass, and says why in the log", async (_n, make) => {
    const { acceptance, io, ranHere } = await judge(() => make() ?? "");
    expect(acceptance?.result).toBe("could-not-check");
    expect(ranHere).toBe(false);
    expect(io.logs.join("\n")).toMatch(/acceptance result/);
  });

  it("on a trusted workflow_run whose run lists no pull request (as GitHub does for a fork's run, and at times for others), the PR is found from the run's head SHA and judged there", async () => {
    world = await gateWorld({ command: () => "npm test" });
    const file = join(world.scratch, "acceptance-result.json");
    writeFileSync(file, JSON.stringify({ bosun_acceptance: 1, sha: world.pull.headSha, command: "npm test", exit_code: 0 }));
    const payload = { workflow_run: { id: 99, path: ".github/workflows/bosun-acceptance.yml", event: "pull_request", conclusion: "success", head_sha: world.pull.headSha, head_branch: world.pull.headRef, head_repository: { full_name: REPO }, pull_requests: [] } };
    const io = await world.runAs("workflow_run", payload, { "acceptance-result": file }, { PATH: process.env["PATH"] });
    const runs = [...world.fake.repo(REPO).checkRuns.values()];
    expect(io.outputs["verdict"]).toBe("pass");
    expect(runs.map((r) => [r.headSha, r.conclusion])).toEqual([[world.pull.headSha, "success"]]);
  });
});
