/** `assign` to Copilot: through a user-to-server token, or a failure that names the token it needs. */
import { afterEach, describe, expect, it } from "vitest";
import { RepoTicker } from "../../../src/adapters/github/tick/repo-ticker.js";
import { MemoryJournal } from "../../../src/adapters/memory/memory-journal.js";
import { parseClaimMessage } from "../../../src/core/claims/claim-record.js";
import { createTestOctokit } from "../../fake-github/test-octokit.js";
import { BOT, REPO, schedulerFixture } from "./scheduler-fixture.js";

type Fixture = Awaited<ReturnType<typeof schedulerFixture>>;
let f: Fixture | undefined;
afterEach(async () => {
  await f?.fake.close();
  f = undefined;
});

const CONFIG = "pools:\n  default: {size: 1, dispatch: {kind: assign, assignee: Copilot}}\nlease: 10m\n";

describe("dispatch kind assign, to Copilot", () => {
  it("with only the installation token: no dispatch that nobody received; the claim is given back and the failure names the token Copilot needs", async () => {
    f = await schedulerFixture(CONFIG);
    const n = await f.queue("one");
    const a = f.replica("a");
    const report = await a.tick();
    // GitHub's side: Copilot is not on the issue, and the claim was given back rather than held by nobody.
    expect(f.fake.repo(REPO).issues.get(n)?.assignees).toEqual([]);
    expect(report.dispatched).toEqual([]);
    const said = JSON.stringify([a.journal.events, report.failures]);
    expect(said).toContain("user-to-server token");
    expect(said).toContain("BOSUN_COPILOT_TOKEN");
    const head = f.fake.repo(REPO).refs.get(`refs/bosun/claims/${n}`) ?? "";
    expect(parseClaimMessage(f.fake.repo(REPO).commits.get(head)?.message ?? "", `refs/bosun/claims/${n}`)).toMatchObject({ state: "released" });
    expect(f.labelsOf(n)).not.toContain("bosun:claimed");
  });

  it("with a user-to-server token configured: Copilot is assigned, by that user", async () => {
    f = await schedulerFixture(CONFIG);
    f.fake.addToken("t-seat", "seat-holder", { permissions: { [REPO]: "write" } });
    const n = await f.queue("one");
    const ticker = new RepoTicker(createTestOctokit(f.fake.url, "t-bot"), { owner: "acme", repo: "app", botLogin: BOT, defaultBranch: "main", holder: "a", clock: f.clock, journal: new MemoryJournal(), copilot: createTestOctokit(f.fake.url, "t-seat") });
    const report = await ticker.tick(f.config);
    expect(report.dispatched).toEqual([n]);
    expect(f.fake.repo(REPO).issues.get(n)?.assignees).toEqual(["copilot-swe-agent"]);
    expect(f.fake.accounting.log.filter((e) => e.route === "POST /repos/{owner}/{repo}/issues/{issue_number}/assignees").map((e) => e.login)).toEqual(["seat-holder"]);
    expect(f.labelsOf(n)).toContain("bosun:claimed");
  });
});
