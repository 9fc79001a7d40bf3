/** `assign` to Copilot: through a user-to-server token, or a failure that names the token it needs. */
import { afterEach, describe, expect, it } from "vitest";
import { reconcileTick } from "../../../src/app/scheduler/reconcile-tick.js";
import { octokitSchedulerGitHub } from "../../../src/app/scheduler/octokit-scheduler-github.js";
import { createTestOctokit } from "../../fake-github/test-octokit.js";
import { REPO, schedulerFixture } from "./scheduler-fixture.js";

type Fixture = Awaited<ReturnType<typeof schedulerFixture>>;
let f: Fixture | undefined;
afterEach(async () => {
  await f?.fake.close();
  f = undefined;
});

const CONFIG = "pools:\n  default: {size: 1, dispatch: {kind: assign, assignee: Copilot}}\nlease: 10m\n";

describe("dispatch kind assign, to Copilot", () => {
  it("with only the installation token: no dispatch that nobody received; the failure names the token Copilot needs", async () => {
    f = await schedulerFixture(CONFIG);
    const n = await f.queue("one");
    const a = f.replica("a");
    await reconcileTick(a).catch(() => undefined);
    // GitHub's side: Copilot is not on the issue, and the claim was given back rather than held by nobody.
    expect(f.fake.repo(REPO).issues.get(n)?.assignees).toEqual([]);
    const said = JSON.stringify(a.journal.events);
    expect(said).toContain("user-to-server token");
    expect(said).toContain("BOSUN_COPILOT_TOKEN");
    expect(f.labelsOf(n)).not.toContain("bosun:claimed");
  });

  it("with a user-to-server token configured: Copilot is assigned, by that user", async () => {
    f = await schedulerFixture(CONFIG);
    f.fake.addToken("t-mona", "mona", { permissions: { [REPO]: "write" } });
    const n = await f.queue("one");
    const base = f.replica("a");
    const github = octokitSchedulerGitHub(createTestOctokit(f.fake.url, "t-bot"), { owner: "acme", repo: "app", botLogin: "bosun[bot]", defaultBranch: "main", copilot: createTestOctokit(f.fake.url, "t-mona") });
    const report = await reconcileTick({ ...base, github });
    expect(report.dispatched).toEqual([n]);
    expect(f.fake.repo(REPO).issues.get(n)?.assignees).toEqual(["copilot-swe-agent"]);
    expect(f.fake.accounting.log.filter((e) => e.route === "POST /repos/{owner}/{repo}/issues/{issue_number}/assignees").map((e) => e.login)).toEqual(["mona"]);
  });
});
