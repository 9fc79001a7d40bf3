/** The timed sweep's listings of installations and repositories: conditional, so an idle sweep is 304s only. */
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { createInstalledRepoLister } from "../../../src/app/list-installed-repos.js";
import { createFakeGitHub, type FakeGitHub } from "../../fake-github/create-fake-github.js";
import { createTestOctokit } from "../../fake-github/test-octokit.js";

describe("the sweep's listings of installations and repositories", () => {
  let fake: FakeGitHub;
  beforeEach(async () => {
    fake = await createFakeGitHub();
    fake.addRepo({ fullName: "acme/app" });
    fake.addRepo({ fullName: "acme/api" });
    fake.addInstallation({ id: 7, appId: 42, appSlug: "bosun", repos: ["acme/app"] });
    fake.state.tokens.set("t-app", { kind: "app", appId: 42, slug: "bosun" });
  });
  afterEach(async () => fake.close());

  test("a second sweep of unchanged installations is 304s only; a change is read again", async () => {
    const app = createTestOctokit(fake.url, "t-app");
    const auth = async (id: number) => createTestOctokit(fake.url, (await app.apps.createInstallationAccessToken({ installation_id: id })).data.token);
    const list = createInstalledRepoLister();
    const listings = (since: number) => fake.accounting.log.filter((e) => e.seq > since && (e.route === "GET /app/installations" || e.route === "GET /installation/repositories")).map((e) => `${e.route} ${e.status}`);
    const first = await list(app, auth);
    expect(first.map((i) => i.repos.map((r) => `${r.owner}/${r.repo}@${r.defaultBranch}`))).toEqual([["acme/app@main"]]);
    let mark = fake.accounting.log.at(-1)?.seq ?? 0;
    const again = await list(app, auth);
    expect(again.map((i) => i.repos.map((r) => r.repo))).toEqual([["app"]]);
    expect(listings(mark)).toEqual(["GET /app/installations 304", "GET /installation/repositories 304"]);
    // The installation gains a repository: its listing answers 200 with it.
    fake.state.installations.get(7)?.repos.push("acme/api");
    mark = fake.accounting.log.at(-1)?.seq ?? 0;
    const grown = await list(app, auth);
    expect(grown.map((i) => i.repos.map((r) => r.repo))).toEqual([["app", "api"]]);
    expect(listings(mark)).toEqual(["GET /app/installations 304", "GET /installation/repositories 200"]);
  });

  test("within its age a listing is reused without a request; dropped (a webhook said so), it is asked again", async () => {
    const app = createTestOctokit(fake.url, "t-app");
    const auth = async (id: number) => createTestOctokit(fake.url, (await app.apps.createInstallationAccessToken({ installation_id: id })).data.token);
    let clock = 1_000_000;
    const list = createInstalledRepoLister({ now: () => clock, maxAgeMs: 600_000 });
    const listings = (since: number) => fake.accounting.log.filter((e) => e.seq > since && (e.route === "GET /app/installations" || e.route === "GET /installation/repositories")).map((e) => `${e.route} ${e.status}`);
    await list(app, auth);
    let mark = fake.accounting.log.at(-1)?.seq ?? 0;
    fake.state.installations.get(7)?.repos.push("acme/api");
    clock += 599_000;
    expect((await list(app, auth)).map((i) => i.repos.map((r) => r.repo))).toEqual([["app"]]);
    expect(listings(mark)).toEqual([]);
    // The installation_repositories webhook: read again at once.
    list.invalidate();
    expect((await list(app, auth)).map((i) => i.repos.map((r) => r.repo))).toEqual([["app", "api"]]);
    expect(listings(mark)).toEqual(["GET /app/installations 304", "GET /installation/repositories 200"]);
    // Without a webhook (lost, or heard by another replica), the age bounds how long a change goes unseen.
    fake.state.installations.get(7)?.repos.splice(1);
    mark = fake.accounting.log.at(-1)?.seq ?? 0;
    clock += 600_000;
    expect((await list(app, auth)).map((i) => i.repos.map((r) => r.repo))).toEqual([["app"]]);
    expect(listings(mark)).toEqual(["GET /app/installations 304", "GET /installation/repositories 200"]);
  });
});
