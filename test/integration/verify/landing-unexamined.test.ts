/**
 * What verify's landing does with the part of a deployment it did not examine, over the real
 * Octokit against the fake GitHub: with no earlier deployment only the head commit is read, and
 * past the read bound the commits left out are counted. Either way the count reaches a human (a
 * `bosun/deploy-landing` commit status), and every item that can still be identified cheaply (a
 * merged pull request whose merge commit lies in the unexamined commits) is labelled
 * `bosun:needs-human` with a comment, never closed unexamined. Judged on the fake's request log,
 * issues, labels, comments and statuses.
 */
import { afterEach, describe, expect, it } from "vitest";
import { modes } from "../../../src/action/modes.js";
import { createFakeGitHub } from "../../fake-github/create-fake-github.js";
import type { FakeGitHub } from "../../fake-github/create-fake-github.js";
import { createTestOctokit } from "../../fake-github/test-octokit.js";
import { recordingIo } from "./fake-action-io.js";
import { json, startVersionServer } from "./version-server.js";
import type { VersionServer } from "./version-server.js";

const REPO = "acme/shop";
const TOKEN = "ghs_fakeInstallationToken0123456789abcdef";
const fast = { interval: "20ms", timeout: "2s", "probe-timeout": "500ms", seed: "1", field: "version", "verify-hosts": "127.0.0.1" };

let fake: FakeGitHub | undefined;
let target: VersionServer | undefined;
afterEach(async () => {
  await target?.close();
  await fake?.close();
  target = undefined;
  fake = undefined;
});

/**
 * main: `Before` (closes `old`), then a PR closing `early` (2 commits), then one closing `late`
 * (`bulk` commits), each merged as GitHub does it: the PR closed, merged, its merge commit set.
 * `previous` deploys `Before`'s merge first; the head is deployed and verified.
 */
async function world(bulk: number, previous: boolean) {
  const f = await createFakeGitHub();
  fake = f;
  f.addRepo({ fullName: REPO });
  f.addToken(TOKEN, "github-actions[bot]", { permissions: { [REPO]: "write" } });
  const merge = (body: string, commitCount: number) => {
    const pr = f.addPull(REPO, { title: body, body, commitCount });
    f.setRef(REPO, "main", pr.headSha);
    pr.merged = true;
    pr.mergedAt = f.clock.now();
    pr.mergeCommitSha = pr.headSha;
    const issue = f.repo(REPO).issues.get(pr.number);
    if (issue !== undefined) issue.state = "closed";
    return pr;
  };
  const old = f.addIssue(REPO, { title: "Old" });
  const early = f.addIssue(REPO, { title: "Early" });
  const late = f.addIssue(REPO, { title: "Late" });
  const before = merge(`Closes #${old.number}`, 1);
  const earlyPr = merge(`Closes #${early.number}`, 2);
  const headSha = merge(`Closes #${late.number}`, bulk).headSha;
  const octokit = createTestOctokit(f.url, TOKEN);
  const deploy = async (sha: string): Promise<number> => {
    const { data } = await octokit.rest.repos.createDeployment({ owner: "acme", repo: "shop", ref: sha, environment: "production", required_contexts: [] });
    if (!("id" in data)) throw new Error("deployment not created");
    await octokit.rest.repos.createDeploymentStatus({ owner: "acme", repo: "shop", deployment_id: data.id, state: "success" });
    return data.id;
  };
  if (previous) await deploy(before.headSha);
  const deploymentId = await deploy(headSha);
  target = await startVersionServer((_n, _req, res) => json(res, { version: headSha }));
  f.accounting.reset();
  const io = recordingIo(
    fast,
    {
      name: "deployment_status",
      sha: headSha,
      repo: { owner: "acme", repo: "shop" },
      payload: {
        deployment_status: { state: "success", environment: "production", environment_url: `${target.url}/version`, description: "Deployed", creator: { login: "github-actions[bot]" } },
        deployment: { id: deploymentId, sha: headSha, environment: "production", creator: { login: "github-actions[bot]" } },
      },
    },
    { GITHUB_TOKEN: TOKEN, GITHUB_API_URL: f.url },
  );
  const load = modes["verify"];
  if (load === undefined) throw new Error("verify mode is not registered");
  await (await load()).run(io);
  const issue = (n: number) => {
    const record = f.repo(REPO).issues.get(n);
    const comments = [...f.repo(REPO).comments.values()].filter((c) => c.issueNumber === n).map((c) => c.body);
    return { state: record?.state, labels: record?.labels ?? [], comments };
  };
  const landingStatuses = f.repo(REPO).statuses.filter((s) => s.context === "bosun/deploy-landing");
  return { io, f, headSha, earlyPr: earlyPr.number, old: old.number, early: early.number, late: late.number, issue, landingStatuses };
}

const pullLookups = (f: FakeGitHub) => f.accounting.log.filter((e) => e.method === "GET" && /\/commits\/[0-9a-f]{40}\/pulls$/.test(e.path.split("?")[0] ?? "")).map((e) => /\/commits\/([0-9a-f]{40})\/pulls/.exec(e.path)?.[1]);

describe("verify's landing with no earlier deployment (real Octokit, fake GitHub)", () => {
  it("examines the head commit only, lands its item, leaves the rest open and tells a human how much is unknown", async () => {
    const { io, f, headSha, late, early, old, issue, landingStatuses } = await world(1, false);
    expect(io.outputs["verdict"]).toBe("verified");
    // What was examined: one commit's pulls, the head's; no range could be compared.
    expect(pullLookups(f)).toEqual([headSha]);
    expect(f.accounting.log.some((e) => e.path.includes("/compare/"))).toBe(false);
    expect(issue(late)).toMatchObject({ state: "closed", labels: expect.arrayContaining(["bosun:done"]) });
    // The earlier items were not examined: not closed, not marked done.
    for (const n of [early, old]) {
      expect(issue(n).state).toBe("open");
      expect(issue(n).labels).not.toContain("bosun:done");
    }
    expect(io.outputs["unexamined"]).toBe("unknown");
    expect(io.summaries.join("\n")).toMatch(/\*\*Not examined:\*\* an unknown number of commit\(s\) \(no earlier successful deployment/);
    // The count reaches a human where they look: a commit status on the deployed commit.
    expect(landingStatuses).toHaveLength(1);
    expect(landingStatuses[0]).toMatchObject({ sha: headSha, state: "failure" });
    expect(landingStatuses[0]?.description).toMatch(/^an unknown number of deployed commits were not examined/);
    expect(landingStatuses[0]?.description?.length).toBeLessThanOrEqual(140);
  });
});

describe("verify's landing past the read bound (real Octokit, fake GitHub)", () => {
  it("sends the identifiable items of the unexamined commits to a human, never closing them; leaves earlier deployments' items alone", async () => {
    const { io, f, headSha, late, early, earlyPr, old, issue, landingStatuses } = await world(400, true);
    expect(io.outputs["verdict"]).toBe("verified");
    expect(pullLookups(f)).toHaveLength(300);
    expect(issue(late).state).toBe("closed");
    // The early PR's merge commit is in the range, past the 300 examined: a human lands it.
    const e = issue(early);
    expect(e.state).toBe("open");
    expect(e.labels).toContain("bosun:needs-human");
    expect(e.labels).not.toContain("bosun:done");
    expect(e.comments).toHaveLength(1);
    expect(e.comments[0]).toContain(`#${earlyPr}`);
    expect(e.comments[0]).toMatch(/not examined/);
    expect(io.outputs["needs-human"]?.split(",")).toContain(String(early));
    // `Before` was deployed earlier: outside the range, so nothing is said on its issue.
    expect(issue(old)).toMatchObject({ state: "open", comments: [] });
    expect(issue(old).labels).not.toContain("bosun:needs-human");
    expect(landingStatuses).toHaveLength(1);
    expect(landingStatuses[0]).toMatchObject({ sha: headSha, state: "failure" });
    expect(landingStatuses[0]?.description).toMatch(/^102 deployed commits were not examined; 1 item sent to a human/);
    // Identifying them is a bounded read, not one request per commit.
    expect(f.accounting.log.filter((x) => x.method === "GET" && /\/pulls$/.test(x.path.split("?")[0] ?? "") && !x.path.includes("/commits/")).length).toBeLessThanOrEqual(3);
  }, 60_000);

  it("a range read whole posts no landing status and labels nobody", async () => {
    const { io, early, issue, landingStatuses } = await world(5, true);
    expect(io.outputs["unexamined"]).toBe("");
    expect(issue(early)).toMatchObject({ state: "closed" });
    expect(issue(early).labels).not.toContain("bosun:needs-human");
    expect(landingStatuses).toEqual([]);
  });
});
