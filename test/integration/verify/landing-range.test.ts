/**
 * verify's landing reads the whole deployed range, page by page, and counts what it did not
 * examine instead of dropping it. Judged on the fake GitHub's issues (closed or not), not on
 * Bosun's own report.
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

/** A repo whose deployed range holds an early small PR (closing `early`) then a PR of `bulk` commits. */
async function world(bulk: number) {
  const f = await createFakeGitHub();
  fake = f;
  f.addRepo({ fullName: REPO });
  f.addToken(TOKEN, "github-actions[bot]", { permissions: { [REPO]: "write" } });
  const merge = (body: string, commitCount: number) => {
    const pr = f.addPull(REPO, { title: body, body, commitCount });
    f.setRef(REPO, "main", pr.headSha);
    pr.merged = true;
    pr.mergedAt = f.clock.now();
    return pr;
  };
  const early = f.addIssue(REPO, { title: "Early" });
  const late = f.addIssue(REPO, { title: "Late" });
  const prevSha = merge("Before", 1).headSha;
  merge(`Closes #${early.number}`, 2);
  const headSha = merge(`Closes #${late.number}`, bulk).headSha;
  const octokit = createTestOctokit(f.url, TOKEN);
  const deploy = async (sha: string): Promise<number> => {
    const { data } = await octokit.rest.repos.createDeployment({ owner: "acme", repo: "shop", ref: sha, environment: "production", required_contexts: [] });
    if (!("id" in data)) throw new Error("deployment not created");
    await octokit.rest.repos.createDeploymentStatus({ owner: "acme", repo: "shop", deployment_id: data.id, state: "success" });
    return data.id;
  };
  await deploy(prevSha);
  const deploymentId = await deploy(headSha);
  target = await startVersionServer((_n, _req, res) => json(res, { version: headSha }));
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
  return { io, early: early.number, late: late.number, f };
}

describe("verify's landing over a long deployed range", () => {
  it("a range of 260 commits is read whole: the early PR's issue is landed too", async () => {
    const { io, early, late, f } = await world(258);
    expect(io.outputs["verdict"]).toBe("verified");
    expect(f.repo(REPO).issues.get(late)?.state).toBe("closed");
    expect(f.repo(REPO).issues.get(early)?.state).toBe("closed");
    expect(io.outputs["unexamined"]).toBe("");
  });

  it("past what one run examines, the commits left out are counted and said, not dropped silently", async () => {
    const { io, early, late, f } = await world(400);
    expect(f.repo(REPO).issues.get(late)?.state).toBe("closed");
    expect(f.repo(REPO).issues.get(early)?.state).toBe("open");
    expect(io.outputs["unexamined"]).toBe("102");
    expect(io.summaries.join("\n")).toMatch(/\*\*Not examined:\*\* 102 commit\(s\) \(the range [0-9a-f]{12}\.\.\.[0-9a-f]{12} has 402 commits; the newest 300 were examined\)/);
    expect(io.logs.join("\n")).toMatch(/not every deployed commit was examined/);
  }, 60_000);
});
