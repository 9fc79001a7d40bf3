import { afterEach, describe, expect, it } from "vitest";
import { createVerifyProbe } from "../../../src/adapters/create-verify-probe.js";
import { systemClock } from "../../../src/adapters/local/system-clock.js";
import { createMemoryDeployGitHub } from "../../support/doubles/memory-deploy-github.js";
import type { MemoryDeployGitHub } from "../../support/doubles/memory-deploy-github.js";
import { runVerifyAction } from "../../../src/action/verify/run-verify-action.js";
import { recordingIo } from "./fake-action-io.js";
import { json, refusedPortUrl, startVersionServer } from "./version-server.js";
import type { VersionServer } from "./version-server.js";

// The verify mode on the memory port, probing a real loopback target.
const NEW = "1111111111111111111111111111111111111111";
const OLD = "2222222222222222222222222222222222222222";
const PREV = "3333333333333333333333333333333333333333";
const TOKEN = "ghs_abcdefghijklmnopqrstuvwxyz0123456789";
// Short waits where the verdict comes from the target failing (refused, skipped); a deadline that a
// busy machine cannot miss where it comes from answers: `verified` ends at its K-th match whatever
// the deadline, and a mismatch is concluded only at the deadline, after at least one answer.
const fast = { interval: "20ms", timeout: "500ms", "probe-timeout": "300ms", seed: "1", field: "sha" };
const patient = { ...fast, timeout: "60s", "probe-timeout": "20s" };
const answered = { ...fast, timeout: "4s", "probe-timeout": "3s" };

function repo(): MemoryDeployGitHub {
  return createMemoryDeployGitHub({
    deployments: [
      { id: 41, sha: PREV, environment: "production", state: "success" },
      { id: 40, sha: OLD, environment: "production", state: "success" },
    ],
    ranges: { [`${PREV}...${NEW}`]: ["c1", "c2", NEW] },
    pullsByCommit: {
      c1: [{ number: 11, body: "Closes #7\n\nAlso fixes #8" }],
      c2: [{ number: 11, body: "Closes #7\n\nAlso fixes #8" }],
      [NEW]: [{ number: 12, body: "Refactor only, see #9" }],
    },
  });
}

function deploymentStatus(url: string, state = "success", description = "Deployed by CD") {
  return {
    name: "deployment_status",
    sha: NEW,
    payload: {
      deployment_status: { state, environment: "production", environment_url: url, description, creator: { login: "github-actions[bot]" } },
      deployment: { id: 42, sha: NEW, environment: "production", creator: { login: "github-actions[bot]" } },
    },
  };
}

let server: VersionServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function target(version: string, status = 200): Promise<string> {
  server = await startVersionServer((_n, _req, res) => json(res, { sha: version }, status));
  return `${server.url}/version`;
}

const deps = (github: MemoryDeployGitHub) => ({
  github,
  clock: systemClock,
  probeFor: createVerifyProbe,
  secrets: [TOKEN],
  trust: { deployers: ["github-actions[bot]"], hosts: ["127.0.0.1"] },
});

describe("Action verify mode (memory GitHub, loopback target)", () => {
  it("verified on deployment_status: statuses posted, items of the deployed range closed with the evidence", async () => {
    const github = repo();
    const io = recordingIo(patient, deploymentStatus(await target(NEW.slice(0, 7))));
    const verdict = await runVerifyAction(io, deps(github));

    expect(verdict?.kind).toBe("verified");
    expect(github.effects).toEqual([
      "deployment-status 42 success: bosun: verified 1111111 on 3 consecutive probes",
      `commit-status ${NEW} bosun/deploy-verified success: bosun: verified 1111111 on 3 consecutive probes`,
      `range ${PREV}...${NEW}`,
      "comment #7",
      "label #7 bosun:done",
      "close #7",
      "comment #8",
      "label #8 bosun:done",
      "close #8",
    ]);
    expect(github.comments.get(7)?.[0]).toMatch(/deployment to `production` carrying #11 is verified: reported 1111111 on 3 consecutive probe/);
    expect(github.comments.get(7)?.[0]).toContain("| 3 |");
    expect(github.comments.get(7)?.[0]).toContain("https://github.com/acme/shop/actions/runs/777");
    expect(io.outputs).toMatchObject({ verdict: "verified", reported: "1111111", landed: "7,8", "needs-human": "" });
    expect(io.summaries.join("\n")).toMatch(/Deployment verified \(production\)/);
    expect(io.summaries.join("\n")).toContain("| #7 | #11 | closed, `bosun:done` |");
    expect(io.failures).toEqual([]);
    expect(io.logs.some((l) => /probe 1: reports 1111111/.test(l))).toBe(true);
  });

  it("mismatch: failure statuses, items marked bosun:needs-human with the reason, not closed, step failed naming the version", async () => {
    const github = repo();
    const io = recordingIo(answered, deploymentStatus(await target(OLD)));
    await runVerifyAction(io, deps(github));

    expect(github.effects.slice(0, 2)).toEqual([
      `deployment-status 42 failure: bosun: mismatch: reports ${OLD.slice(0, 12)}, expected ${NEW.slice(0, 12)}`,
      `commit-status ${NEW} bosun/deploy-verified failure: bosun: mismatch: reports ${OLD.slice(0, 12)}, expected ${NEW.slice(0, 12)}`,
    ]);
    expect([...github.labels.entries()].map(([i, l]) => `${i}:${[...l].join()}`)).toEqual(["7:bosun:needs-human", "8:bosun:needs-human"]);
    expect(github.closed.size).toBe(0);
    expect(github.comments.get(8)?.[0]).toMatch(/could not be verified \(\*\*mismatch\*\*\): the target reports 2222/);
    expect(io.outputs).toMatchObject({ verdict: "mismatch", reported: OLD, landed: "", "needs-human": "7,8" });
    expect(io.failures).toHaveLength(1);
    expect(io.failures[0]).toContain(`reports ${OLD}`);
  });

  it("unreachable: error statuses and needs-human when the environment URL refuses connections", async () => {
    const github = repo();
    const io = recordingIo(fast, deploymentStatus(await refusedPortUrl()));
    await runVerifyAction(io, deps(github));
    expect(github.effects[0]).toMatch(/^deployment-status 42 error: bosun: unreachable: .*connection refused/);
    expect(github.effects[1]).toMatch(new RegExp(`^commit-status ${NEW} bosun/deploy-verified error:`));
    expect(io.outputs["verdict"]).toBe("unreachable");
    expect(io.outputs["needs-human"]).toBe("7,8");
    expect(io.failures[0]).toMatch(/unreachable: .*connection refused/);
  });

  it("a step after a deploy: inputs give the URL and SHA; no deployment, so only the commit status; no base, so the head's pulls", async () => {
    const github = repo();
    const url = await target(NEW);
    const io = recordingIo({ ...patient, url, sha: NEW });
    await runVerifyAction(io, deps(github));
    expect(github.effects).toEqual([
      `commit-status ${NEW} bosun/deploy-verified success: bosun: verified ${NEW.slice(0, 12)} on 3 consecutive probes`,
      `range (none)...${NEW}`,
      // The unknown rest reaches a human on the deployed commit.
      `commit-status ${NEW} bosun/deploy-landing failure: an unknown number of deployed commits were not examined; a human should land the items they carried`,
    ]);
    expect(io.summaries.join("\n")).toContain("No merged pull request in the examined range closes an issue.");
    // With no earlier deployment only the head is read: that is said, with the count unknown.
    expect(io.summaries.join("\n")).toContain("**Not examined:** an unknown number of commit(s) (no earlier successful deployment to compare with: only the head commit was examined)");
    expect(io.outputs["unexamined"]).toBe("unknown");
  });

  it.each([
    ["a failed deployment", "failure", "Deploy failed", /deployment status is 'failure'/],
    ["the status bosun itself posted", "success", "bosun: verified 1111111 on 3 consecutive probes", /posted by bosun itself/],
  ])("skips %s without touching GitHub", async (_name, state, description, reason) => {
    const github = repo();
    const io = recordingIo(fast, deploymentStatus("http://127.0.0.1:1/version", state, description));
    expect(await runVerifyAction(io, deps(github))).toBeUndefined();
    expect(github.effects).toEqual([]);
    expect(io.outputs["verdict"]).toBe("skipped");
    expect(io.logs.join("\n")).toMatch(reason);
  });

  it("fails on invalid inputs, naming every one, without touching GitHub", async () => {
    const github = repo();
    const io = recordingIo({ url: "ftp://x", consecutive: "zero", "deployment-id": "abc" });
    await runVerifyAction(io, deps(github));
    expect(github.effects).toEqual([]);
    expect(io.failures[0]).toMatch(/input 'deployment-id'.*input 'url'.*must be an http.*input 'consecutive'/);
  });

  it("lands nothing with land: false", async () => {
    const github = repo();
    const io = recordingIo({ ...patient, land: "false" }, deploymentStatus(await target(NEW)));
    await runVerifyAction(io, deps(github));
    expect(github.effects.map((e) => e.split(" ")[0])).toEqual(["deployment-status", "commit-status"]);
  });

  it("never writes a credential: not from the URL, not the token", async () => {
    const github = repo();
    const url = `${await target(OLD)}?access_token=${TOKEN}`.replace("http://", "http://deploy:pw-s3cret@");
    const io = recordingIo({ ...patient, url: `${url}`, sha: NEW, environment: "production" });
    await runVerifyAction(io, deps(github));
    const written = [io.everything(), ...github.effects, ...[...github.comments.values()].flat()].join("\n");
    expect(written).toContain("deploy:***@");
    expect(written).not.toContain(TOKEN);
    expect(written).not.toContain("pw-s3cret");
  });
});
