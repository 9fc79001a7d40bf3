/**
 * The dashboard's Setup section, over real HTTP: what doctor finds wrong shows on the App's
 * dashboard; it is read again when the setup may have changed (a push to the default branch at
 * once, protection after the section's age) with conditional requests, so an unchanged setup
 * costs 304s only and rewrites nothing.
 */
import { afterEach, describe, expect, test } from "vitest";
import { DASHBOARD_MARKER } from "../../../src/core/dashboard/dashboard-state.js";
import { APP_DEFAULTS } from "../../../src/app/app-defaults.js";
import { setupOf } from "../../fake-github/setup-records.js";
import { setUpBosunRepo } from "../../support/set-up-bosun-repo.js";
import { BOT, OWNER_REPO, REPO, startHarness, WEBHOOK_SECRET, type Harness } from "./app-harness.js";

let h: Harness | undefined;
afterEach(async () => h?.close());

/** Routes only doctor's reads use (the intake reads the config too, so `.github/bosun.yml` is left out). */
const SETUP_READ = /^GET \/repos\/\{owner\}\/\{repo\}(\/installation|\/labels|\/environments|\/branches|\/rules|\/rulesets)/;
const isSetupRead = (e: { route: string | null; path: string }) => SETUP_READ.test(e.route ?? "") || e.path.includes("/contents/.github%2Fworkflows");

/** The Setup section of a dashboard body, up to the next section. */
const setupSection = (body: string) => /## Setup\n[\s\S]*?(?=\n## )/.exec(body)?.[0] ?? "";
const dashboard = (h: Harness) => [...h.fake.repo(REPO).issues.values()].find((i) => (i.body ?? "").startsWith(DASHBOARD_MARKER));

async function tick(h: Harness, issue: number): Promise<void> {
  // Any label change is a hint the scheduler ticks on.
  await h.as("maintainer").issues.addLabels({ ...OWNER_REPO, issue_number: issue, labels: ["P3"] });
  await h.as("maintainer").issues.removeLabel({ ...OWNER_REPO, issue_number: issue, name: "P3" });
  await h.fake.webhooks.flush();
}

function setupReads(h: Harness, since: number) {
  return h.fake.accounting.log.filter((e) => e.seq > since && e.method === "GET" && (e.login === BOT || e.login === null) && isSetupRead(e));
}

describe("the dashboard's Setup section", () => {
  test("shows doctor's problems, re-reads only when the setup may have changed, with 304s and the same text while nothing changed", async () => {
    h = await startHarness({ dashboardIntervalMs: 0 });
    await setUpBosunRepo(h.fake, { fullName: REPO, appId: 42, installationId: 501, adminToken: "t-admin", existing: true });
    const issue = h.issue("not a brief", "A plain issue");
    await tick(h, issue);
    const first = dashboard(h)?.body ?? "";
    expect(first).toContain("## Setup");
    expect(first).toContain("Every setup check the App can make holds.");
    // Without the Secrets permission the App cannot read secret names: said, not passed.
    expect(first).toContain("Not checked here (the App's permissions do not reach them): `environment-secrets`. An admin checks them with `npx bosun doctor --repo acme/app`.");

    // Nothing changed, the section is young: no setup read at all.
    let mark = h.logPosition();
    await tick(h, issue);
    expect(setupReads(h, mark)).toEqual([]);

    // Older than its age: read again, conditionally — 304s only (the refused secrets read is not repeated) — and the dashboard is not rewritten.
    h.clock.advance(APP_DEFAULTS.setupMaxAgeMs + 1);
    mark = h.logPosition();
    const before = setupSection(dashboard(h)?.body ?? "");
    await tick(h, issue);
    const reread = setupReads(h, mark);
    expect(reread.length).toBeGreaterThan(5);
    expect(reread.filter((e) => e.status !== 304).map((e) => `${e.route} ${e.status}`)).toEqual([]);
    // The section reads the same (other sections, such as the fleet metrics, change as events are journalled).
    expect(setupSection(dashboard(h)?.body ?? "")).toBe(before);

    // Protection changes (no webhook tells the App): seen at the next read after the section's age.
    const [ruleset] = setupOf(h.fake.repo(REPO)).rulesets.values();
    await h.as("admin").repos.deleteRepoRuleset({ ...OWNER_REPO, ruleset_id: ruleset?.id ?? 0 });
    await tick(h, issue);
    expect(dashboard(h)?.body).toContain("Every setup check the App can make holds.");
    h.clock.advance(APP_DEFAULTS.setupMaxAgeMs + 1);
    await tick(h, issue);
    const changed = dashboard(h)?.body ?? "";
    expect(changed).toContain("`bosun doctor` finds 2 problems in this repository's setup");
    expect(changed).toContain("- **required-checks** (bosun/gate): main does not require bosun/gate");
    expect(changed).toContain("Fix: require it with the Bosun App as its source");
  });

  test("a push to the default branch re-reads at once: a gate workflow edited to run the pull request's code shows at the next tick", async () => {
    h = await startHarness({ dashboardIntervalMs: 0 });
    await setUpBosunRepo(h.fake, { fullName: REPO, appId: 42, installationId: 501, adminToken: "t-admin", existing: true });
    const issue = h.issue("not a brief", "A plain issue");
    await tick(h, issue);
    expect(dashboard(h)?.body).toContain("Every setup check the App can make holds.");
    // The App hears pushes (app.yml subscribes to them).
    const appUrl = h.fake.webhooks.deliveries[0]?.hookUrl ?? "";
    h.fake.webhooks.register({ url: appUrl, secret: WEBHOOK_SECRET, events: ["push"] });
    const main = h.fake.repo(REPO);
    const gate = main.trees.get(main.commits.get(main.refs.get("refs/heads/main") ?? "")?.tree ?? "")?.get(".github/workflows/bosun-gate.yml") ?? "";
    h.fake.setFile(REPO, "main", ".github/workflows/bosun-gate.yml", gate.replace("      - id: gate\n", "      - uses: actions/checkout@3d3c42e5aac5ba805825da76410c181273ba90b1\n        with:\n          ref: ${{ github.event.workflow_run.head_sha }}\n      - run: npm ci && npm test\n      - id: gate\n"));
    h.fake.webhooks.send({ event: "push", repo: main, sender: "mona", fields: { ref: "refs/heads/main", before: "0".repeat(40), after: main.refs.get("refs/heads/main") ?? "" } });
    await h.fake.webhooks.flush();
    await tick(h, issue);
    const body = dashboard(h)?.body ?? "";
    expect(body).toContain("- **workflows** (.github/workflows/bosun-gate.yml)");
    expect(body).toMatch(/checks out \$\\\{\\\{ github\.event\.workflow\\_run\.head\\_sha \\\}\\\}/);
  });
  test("a merge that touched no file under .github/ (every merge is a push to the default branch) does not read the setup again; one that did, does", async () => {
    h = await startHarness({ dashboardIntervalMs: 0 });
    await setUpBosunRepo(h.fake, { fullName: REPO, appId: 42, installationId: 501, adminToken: "t-admin", existing: true });
    const issue = h.issue("not a brief", "A plain issue");
    await tick(h, issue);
    const appUrl = h.fake.webhooks.deliveries[0]?.hookUrl ?? "";
    h.fake.webhooks.register({ url: appUrl, secret: WEBHOOK_SECRET, events: ["push"] });
    const main = h.fake.repo(REPO);
    const gate = main.trees.get(main.commits.get(main.refs.get("refs/heads/main") ?? "")?.tree ?? "")?.get(".github/workflows/bosun-gate.yml") ?? "";
    h.fake.setFile(REPO, "main", ".github/workflows/bosun-gate.yml", gate.replace("      - id: gate\n", "      - run: npm ci && npm test\n      - id: gate\n"));
    const head = main.refs.get("refs/heads/main") ?? "";
    const push = (paths: string[]) => h?.fake.webhooks.send({ event: "push", repo: main, sender: "mona", fields: { ref: "refs/heads/main", before: "0".repeat(40), after: head, forced: false, commits: [{ id: head, added: [], removed: [], modified: paths }] } });
    // What only the Setup section reads (the configuration is read on every tick here: the harness keeps it no time).
    const setupReads = (from: number) => h?.fake.accounting.log.slice(from).filter((e) => (e.route === "GET /repos/{owner}/{repo}/contents/{path}" && !e.path.includes("bosun.yml")) || e.route === "GET /repos/{owner}/{repo}/environments/{environment_name}" || e.route === "GET /repos/{owner}/{repo}/rulesets").length ?? 0;
    let from = h.fake.accounting.log.length;
    push(["src/http/retry.ts"]);
    await h.fake.webhooks.flush();
    await tick(h, issue);
    expect(setupReads(from)).toBe(0);
    expect(dashboard(h)?.body).toContain("Every setup check the App can make holds.");
    from = h.fake.accounting.log.length;
    push(["src/http/retry.ts", ".github/workflows/bosun-gate.yml"]);
    await h.fake.webhooks.flush();
    await tick(h, issue);
    expect(setupReads(from)).toBeGreaterThan(0);
    expect(dashboard(h)?.body).toContain("- **workflows** (.github/workflows/bosun-gate.yml)");
  });
});
