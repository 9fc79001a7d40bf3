import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { modes } from "../../../src/action/modes.js";
import { createFakeGitHub } from "../../fake-github/create-fake-github.js";
import type { FakeGitHub } from "../../fake-github/create-fake-github.js";
import { createTestOctokit } from "../../fake-github/test-octokit.js";
import { recordingIo } from "./fake-action-io.js";
import type { RecordingIo } from "./fake-action-io.js";
import { json, refusedPortUrl, startVersionServer } from "./version-server.js";
import type { VersionServer } from "./version-server.js";

// The real verify mode (from the mode registry) with the real Octokit over HTTP against the fake
// GitHub, probing a real loopback target.
const REPO = "acme/shop";
const TOKEN = "ghs_fakeInstallationToken0123456789abcdef";
const fast = { interval: "20ms", timeout: "500ms", "probe-timeout": "300ms", seed: "1", field: "version", "verify-hosts": "127.0.0.1" };
// A deadline a busy machine cannot miss where the verdict comes from answers: `verified` ends at its
// K-th match, a mismatch is concluded at the deadline after at least one answer.
const patient = { ...fast, timeout: "60s", "probe-timeout": "20s" };
const answered = { ...fast, timeout: "4s", "probe-timeout": "3s" };

let fake: FakeGitHub;
let target: VersionServer | undefined;
let world: { prevSha: string; headSha: string; deploymentId: number; issue: number; other: number; pull: number };

beforeEach(async () => {
  fake = await createFakeGitHub();
  fake.addRepo({ fullName: REPO });
  fake.addToken(TOKEN, "github-actions[bot]", { permissions: { [REPO]: "write" } });
  const issue = fake.addIssue(REPO, { title: "Checkout button", labels: ["bosun:claimed"] });
  const other = fake.addIssue(REPO, { title: "Shipped last week" });
  const merge = (body: string) => {
    const pr = fake.addPull(REPO, { title: body, body, commitCount: 2 });
    // Merge by fast-forwarding main to the pull request's head.
    fake.setRef(REPO, "main", pr.headSha);
    pr.merged = true;
    pr.mergedAt = fake.clock.now();
    return pr;
  };
  // Deployed before: its issue is outside the range and must not be touched.
  const prevSha = merge(`Closes #${other.number}`).headSha;
  const pull = merge(`Adds the button.\n\nCloses #${issue.number}`);
  // The deployed head is a later pull request that closes nothing: finding #issue needs the range.
  const headSha = merge("Docs only").headSha;

  const octokit = createTestOctokit(fake.url, TOKEN);
  const deploy = async (sha: string): Promise<number> => {
    const { data } = await octokit.rest.repos.createDeployment({ owner: "acme", repo: "shop", ref: sha, environment: "production", required_contexts: [] });
    if (!("id" in data)) throw new Error("deployment not created");
    await octokit.rest.repos.createDeploymentStatus({ owner: "acme", repo: "shop", deployment_id: data.id, state: "success" });
    return data.id;
  };
  await deploy(prevSha);
  const deploymentId = await deploy(headSha);
  world = { prevSha, headSha, deploymentId, issue: issue.number, other: other.number, pull: pull.number };
});

afterEach(async () => {
  await target?.close();
  target = undefined;
  await fake.close();
});

async function serveVersion(version: string): Promise<string> {
  target = await startVersionServer((_n, _req, res) => json(res, { version }));
  return `${target.url}/version`;
}

/** Runs the registered verify mode on a deployment_status event for the current deployment. */
async function runMode(environmentUrl: string, inputs: Record<string, string> = fast): Promise<RecordingIo> {
  const io = recordingIo(
    inputs,
    {
      name: "deployment_status",
      sha: world.headSha,
      repo: { owner: "acme", repo: "shop" },
      payload: {
        deployment_status: { state: "success", environment: "production", environment_url: environmentUrl, description: "Deployed by CD", creator: { login: "github-actions[bot]" } },
        deployment: { id: world.deploymentId, sha: world.headSha, environment: "production", creator: { login: "github-actions[bot]" } },
      },
    },
    { GITHUB_TOKEN: TOKEN, GITHUB_API_URL: fake.url },
  );
  const load = modes["verify"];
  if (load === undefined) throw new Error("verify mode is not registered");
  await (await load()).run(io);
  return io;
}

function latestDeploymentStatus() {
  return fake.repo(REPO).deployments.get(world.deploymentId)?.statuses.at(-1);
}

function verifiedStatuses() {
  return fake.repo(REPO).statuses.filter((s) => s.context === "bosun/deploy-verified");
}

function commentsOn(issue: number): string[] {
  return [...fake.repo(REPO).comments.values()].filter((c) => c.issueNumber === issue).map((c) => c.body);
}

describe("Action verify mode against the fake GitHub", () => {
  it("verified: deployment status and bosun/deploy-verified succeed; the issue the deployed PR closes is closed with the evidence and bosun:done", async () => {
    const url = await serveVersion(world.headSha.slice(0, 7));
    const io = await runMode(url, patient);

    expect(io.failures).toEqual([]);
    expect(io.secrets).toEqual([TOKEN]);
    expect(latestDeploymentStatus()).toMatchObject({
      state: "success",
      description: `bosun: verified ${world.headSha.slice(0, 7)} on 3 consecutive probes`,
      environmentUrl: url,
      logUrl: "https://github.com/acme/shop/actions/runs/777",
    });
    expect(verifiedStatuses()).toMatchObject([{ sha: world.headSha, state: "success", targetUrl: "https://github.com/acme/shop/actions/runs/777" }]);

    const issue = fake.repo(REPO).issues.get(world.issue);
    expect(issue).toMatchObject({ state: "closed", stateReason: "completed" });
    expect(issue?.labels).toContain("bosun:done");
    const [comment, ...more] = commentsOn(world.issue);
    expect(more).toEqual([]);
    expect(comment).toContain(`carrying #${world.pull} is verified`);
    expect(comment).toContain("<summary>Evidence</summary>");

    const other = fake.repo(REPO).issues.get(world.other);
    expect(other).toMatchObject({ state: "open", labels: [] });
    expect(commentsOn(world.other)).toEqual([]);

    const summary = io.summaries.join("\n");
    expect(summary).toContain("Deployment verified (production)");
    expect(summary).toContain(`| #${world.issue} | #${world.pull} | closed, \`bosun:done\` |`);
    expect(io.outputs).toMatchObject({ verdict: "verified", landed: String(world.issue), "needs-human": "" });
    expect(JSON.stringify([...fake.repo(REPO).comments.values()])).not.toContain(TOKEN);
    expect([comment, summary, io.logs.join("\n")].join("\n")).not.toContain(TOKEN);
  });

  it("mismatch: failure statuses, the item gets bosun:needs-human with the reason and stays open, the step fails naming the old version", async () => {
    const io = await runMode(await serveVersion(world.prevSha), answered);

    expect(latestDeploymentStatus()).toMatchObject({ state: "failure" });
    expect(latestDeploymentStatus()?.description).toMatch(/^bosun: mismatch: reports [0-9a-f]{12}, expected [0-9a-f]{12}$/);
    expect(verifiedStatuses()).toMatchObject([{ sha: world.headSha, state: "failure" }]);
    const issue = fake.repo(REPO).issues.get(world.issue);
    expect(issue?.state).toBe("open");
    expect(issue?.labels).toEqual(expect.arrayContaining(["bosun:claimed", "bosun:needs-human"]));
    expect(issue?.labels).not.toContain("bosun:done");
    expect(commentsOn(world.issue)[0]).toContain(`could not be verified (**mismatch**): the target reports ${world.prevSha}`);
    expect(io.outputs).toMatchObject({ verdict: "mismatch", reported: world.prevSha, "needs-human": String(world.issue) });
    expect(io.failures).toHaveLength(1);
    expect(io.failures[0]).toContain(`reports ${world.prevSha}`);
  });

  it("unreachable: error statuses and bosun:needs-human when the environment URL refuses connections", async () => {
    const io = await runMode(await refusedPortUrl());
    expect(latestDeploymentStatus()).toMatchObject({ state: "error" });
    expect(latestDeploymentStatus()?.description).toMatch(/connection refused/);
    expect(verifiedStatuses()).toMatchObject([{ state: "error" }]);
    expect(fake.repo(REPO).issues.get(world.issue)?.labels).toContain("bosun:needs-human");
    expect(io.outputs["verdict"]).toBe("unreachable");
  });
});
