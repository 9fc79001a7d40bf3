/**
 * Deployments nobody allowed, made by an agent with write access that has read the docs. The real
 * verify mode runs with the real Octokit over HTTP against the fake GitHub, on a deployment_status
 * event built from GitHub's own record of the deployment and its status, and is judged from what
 * the fake recorded (statuses, issues). Each attack passed before its fix; the real deployment
 * beside it still verifies and lands its item.
 */
import type { Octokit } from "@octokit/rest";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { modes } from "../../../src/action/modes.js";
import type { FakeGitHub } from "../../fake-github/create-fake-github.js";
import { createFakeGitHub } from "../../fake-github/create-fake-github.js";
import { createTestOctokit } from "../../fake-github/test-octokit.js";
import { recordingIo } from "./fake-action-io.js";
import type { RecordingIo } from "./fake-action-io.js";
import { json, startVersionServer } from "./version-server.js";
import type { VersionServer } from "./version-server.js";

const REPO = "acme/shop";
const WHERE = { owner: "acme", repo: "shop" };
const TOKEN = "ghs_forgedDeploymentToken0123456789abcd";
const fast = { interval: "20ms", timeout: "2s", "probe-timeout": "500ms", seed: "1", field: "version" };

let fake: FakeGitHub;
let actions: Octokit;
let mallory: Octokit;
const servers: VersionServer[] = [];
let world: { prevSha: string; pullSha: string; headSha: string; issue: number };

beforeEach(async () => {
  fake = await createFakeGitHub();
  fake.addRepo({ fullName: REPO });
  // The workflow's token, and the deployer's identity by default: GitHub Actions.
  fake.addToken(TOKEN, "github-actions[bot]", { permissions: { [REPO]: "write" } });
  fake.addToken("t-mallory", "mallory", { permissions: { [REPO]: "write" } });
  actions = createTestOctokit(fake.url, TOKEN);
  mallory = createTestOctokit(fake.url, "t-mallory");
  const issue = fake.addIssue(REPO, { title: "Checkout button" });
  const merge = (body: string) => {
    const pr = fake.addPull(REPO, { title: body, body });
    fake.setRef(REPO, "main", pr.headSha);
    pr.merged = true;
    pr.mergedAt = fake.clock.now();
    return pr.headSha;
  };
  const prevSha = merge("Earlier work");
  const pullSha = merge(`Adds the button.\n\nCloses #${issue.number}`);
  const headSha = merge("Docs only");
  world = { prevSha, pullSha, headSha, issue: issue.number };
});
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
  await fake.close();
});

/** A server answering `version` for every request: the real target, or the agent's own. */
async function serving(version: string): Promise<string> {
  const server = await startVersionServer((_n, _req, res) => json(res, { version }));
  servers.push(server);
  return `${server.url}/version`;
}

/** A deployment of `sha` to production by `who`, with a success status carrying `url`. */
async function deploy(who: Octokit, sha: string, url?: string): Promise<number> {
  const { data } = await who.rest.repos.createDeployment({ ...WHERE, ref: sha, environment: "production", required_contexts: [] });
  if (!("id" in data)) throw new Error("no deployment");
  await who.rest.repos.createDeploymentStatus({ ...WHERE, deployment_id: data.id, state: "success", ...(url === undefined ? {} : { environment_url: url }) });
  return data.id;
}

/** The deployment_status event GitHub sends for a deployment's latest status. */
async function statusEvent(deploymentId: number): Promise<{ sha: string; payload: Record<string, unknown> }> {
  const { data: deployment } = await actions.rest.repos.getDeployment({ ...WHERE, deployment_id: deploymentId });
  const { data: statuses } = await actions.rest.repos.listDeploymentStatuses({ ...WHERE, deployment_id: deploymentId });
  return { sha: deployment.sha, payload: { deployment, deployment_status: statuses[0] } };
}

/** The registered verify mode on that event (`event`: an earlier one, as a re-run of its run sees it), in the runner's environment `env`. */
async function verify(deploymentId: number, inputs: Record<string, string> = {}, event?: { sha: string; payload: Record<string, unknown> }, env: Record<string, string> = {}): Promise<RecordingIo> {
  const { sha, payload } = event ?? (await statusEvent(deploymentId));
  const io = recordingIo({ ...fast, ...inputs }, { name: "deployment_status", sha, repo: WHERE, payload }, { GITHUB_TOKEN: TOKEN, GITHUB_API_URL: fake.url, ...env });
  const load = modes["verify"];
  if (load === undefined) throw new Error("verify mode is not registered");
  await (await load()).run(io);
  return io;
}

const verifiedStatuses = () => fake.repo(REPO).statuses.filter((s) => s.context.startsWith("bosun/deploy"));
const issue = () => fake.repo(REPO).issues.get(world.issue);

describe("verify believes only allowed deployers' deployments, at a URL the workflow names or an allowed host", () => {
  it("an agent's own deployment of main at its own server answering main's SHA: refused, nothing posted or landed", async () => {
    await deploy(actions, world.prevSha);
    const forged = await deploy(mallory, world.headSha, await serving(world.headSha));
    const io = await verify(forged, { "verify-hosts": "127.0.0.1" });
    expect(io.outputs["verdict"]).toBe("refused");
    expect(io.failures.join("\n")).toContain("created by mallory");
    expect(verifiedStatuses()).toEqual([]);
    expect(fake.repo(REPO).deployments.get(forged)?.statuses.map((s) => s.creator)).toEqual(["mallory"]);
    expect(issue()).toMatchObject({ state: "open", labels: [] });
  });

  it("a deployment by an allowed deployer whose status the agent posted: refused", async () => {
    const { data } = await actions.rest.repos.createDeployment({ ...WHERE, ref: world.headSha, environment: "production", required_contexts: [] });
    const id = (data as { id: number }).id;
    await mallory.rest.repos.createDeploymentStatus({ ...WHERE, deployment_id: id, state: "success", environment_url: await serving(world.headSha) });
    const io = await verify(id, { "verify-hosts": "127.0.0.1" });
    expect(io.outputs["verdict"]).toBe("refused");
    expect(io.failures.join("\n")).toContain("status was posted by mallory");
    expect(verifiedStatuses()).toEqual([]);
    expect(issue()?.state).toBe("open");
  });

  it("an allowed deployer's deployment whose environment_url is on a host nobody listed: refused; the workflow's own url input is probed instead", async () => {
    await deploy(actions, world.prevSha);
    const real = await serving(world.headSha);
    const id = await deploy(actions, world.headSha, real);
    const refused = await verify(id);
    expect(refused.outputs["verdict"]).toBe("refused");
    expect(refused.failures.join("\n")).toContain("not an allowed host");
    expect(verifiedStatuses()).toEqual([]);
    const named = await verify(id, { url: real });
    expect(named.outputs["verdict"]).toBe("verified");
    expect(issue()).toMatchObject({ state: "closed" });
  });

  it("an agent's 'successful' deployment of a later commit does not become the start of the next real deployment's range", async () => {
    await deploy(actions, world.prevSha);
    await deploy(mallory, world.pullSha);
    const id = await deploy(actions, world.headSha, await serving(world.headSha));
    const io = await verify(id, { "verify-hosts": "127.0.0.1" });
    expect(io.outputs["verdict"]).toBe("verified");
    expect(io.outputs["landed"]).toBe(String(world.issue));
    expect(issue()?.labels).toContain("bosun:done");
  });

  it("a re-run of a verified deployment's verify run, once a newer deployment is live, posts no failure and takes back no landed item", async () => {
    let live = world.pullSha;
    const server = await startVersionServer((_n, _req, res) => json(res, { version: live }));
    servers.push(server);
    await deploy(actions, world.prevSha);
    const first = await deploy(actions, world.pullSha, `${server.url}/version`);
    const event = await statusEvent(first);
    expect((await verify(first, { "verify-hosts": "127.0.0.1" }, event)).outputs["verdict"]).toBe("verified");
    expect(issue()).toMatchObject({ state: "closed", labels: ["bosun:done"] });
    // GitHub's record of that verify run (deployment_status, by the workflow's identity), and a newer deployment going live.
    const runId = 9_001;
    const at = fake.clock.now();
    fake.repo(REPO).workflowRuns.set(runId, { id: runId, workflowId: 0, event: "deployment_status", headBranch: "main", headSha: world.pullSha, status: "completed", conclusion: "success", inputs: {}, actor: "github-actions[bot]", runNumber: 1, createdAt: at, updatedAt: at });
    await deploy(actions, world.headSha, `${server.url}/version`);
    live = world.headSha;
    const before = verifiedStatuses().length;
    // The agent re-runs the old verify run: the same event, probed now.
    await mallory.rest.actions.reRunWorkflow({ ...WHERE, run_id: runId });
    const { data: rerun } = await mallory.rest.actions.getWorkflowRun({ ...WHERE, run_id: runId });
    const io = await verify(first, { "verify-hosts": "127.0.0.1" }, event, { GITHUB_RUN_ATTEMPT: String(rerun.run_attempt), GITHUB_TRIGGERING_ACTOR: rerun.triggering_actor?.login ?? "" });
    expect(io.outputs["verdict"]).toBe("mismatch");
    expect(verifiedStatuses()).toHaveLength(before);
    expect(fake.repo(REPO).deployments.get(first)?.statuses.map((s) => s.state)).not.toContain("failure");
    expect(issue()).toMatchObject({ state: "closed", labels: ["bosun:done"] });
  });

  it("a real deployment by an allowed deployer on an allowed host is verified and lands its item", async () => {
    await deploy(actions, world.prevSha);
    const id = await deploy(actions, world.headSha, await serving(world.headSha));
    const io = await verify(id, { "verify-hosts": "127.0.0.1" });
    expect(io.failures).toEqual([]);
    expect(io.outputs["verdict"]).toBe("verified");
    expect(verifiedStatuses()).toMatchObject([{ sha: world.headSha, state: "success", creator: "github-actions[bot]" }]);
    expect(issue()).toMatchObject({ state: "closed" });
  });
});
