/** `.github/bosun.yml` through the app: a broken file is reported on the dashboard by field, and the last good one stays in force. */
import { afterEach, describe, expect, test } from "vitest";
import { DASHBOARD_MARKER, DASHBOARD_TITLE } from "../../../src/core/dashboard/dashboard-state.js";
import { isSnapshotComment } from "../../../src/core/brief/snapshot.js";
import { isStatusComment } from "../../../src/core/scheduler/status-comment.js";
import { startAppServer, AppEnvError } from "../../../src/app/server.js";
import { BOT, formBody, OWNER_REPO, REPO, startHarness, testPrivateKey, WEBHOOK_SECRET, type Harness } from "./app-harness.js";

// A pool of size 0 dispatches nothing (docs/lifecycle.md), so approved items stay queued under the config's own queued label.
const GOOD = "policy: priority\nlabels:\n  queued: bosun:in-queue\npools:\n  default: {size: 0, dispatch: {kind: comment}}\n";
const BROKEN = "policy: priority\nlabels:\n  queued: bosun:in-queue\npools:\n  default: {size: -1, dispatch: {kind: comment}}\n";

const dashboards = (h: Harness) => [...h.fake.repo(REPO).issues.values()].filter((i) => (i.body ?? "").startsWith(DASHBOARD_MARKER));

async function approve(h: Harness, n: number): Promise<void> {
  await h.as("maintainer").issues.addLabels({ ...OWNER_REPO, issue_number: n, labels: ["bosun:ready"] });
  await h.fake.webhooks.flush();
}

describe("configuration and the dashboard", () => {
  let h: Harness | undefined;
  afterEach(async () => h?.close());

  test("a broken config shows on the dashboard with its exact field; intake keeps the last good config; fixing it clears the report", async () => {
    h = await startHarness({ config: GOOD });
    const first = h.issue(formBody());
    await approve(h, first);
    expect(h.labelsOf(first)).toEqual(["bosun:in-queue", "bosun:ready"]);
    // The tick writes the dashboard (its busy/idle line first): one, with no problem to report.
    expect(dashboards(h)).toHaveLength(1);
    expect(dashboards(h)[0]?.body).not.toContain("Configuration problems");

    h.fake.setFile(REPO, "main", ".github/bosun.yml", BROKEN);
    const invalid = h.issue(formBody({ "Size cap": "lots" }), "Broken brief");
    await approve(h, invalid);
    const second = h.issue(formBody());
    await approve(h, second);
    // The last good config's label names are still the ones used.
    expect(h.labelsOf(second)).toEqual(["bosun:in-queue", "bosun:ready"]);
    const [dashboard] = dashboards(h);
    expect(dashboards(h)).toHaveLength(1);
    expect(dashboard).toMatchObject({ title: DASHBOARD_TITLE, user: BOT });
    expect(dashboard?.body).toContain("## Configuration problems");
    expect(dashboard?.body).toContain("`pools.default.size`");
    // What the tick knows: the queue in policy order and the invalid brief with its problems.
    expect(dashboard?.body).toContain(`#${first} A brief (P2)`);
    expect(dashboard?.body).toContain("Invalid briefs");
    expect(dashboard?.body).toContain(`#${invalid} Broken brief`);
    expect(dashboard?.body).toContain("size_cap");

    // The same broken file again: the dashboard is not rewritten.
    const before = h.logPosition();
    await approve(h, h.issue(formBody()));
    expect(h.botWrites(before).filter((w) => w.startsWith("PATCH /repos/{owner}/{repo}/issues/{issue_number} ") || w.startsWith("POST /repos/{owner}/{repo}/issues "))).toEqual([]);

    h.fake.setFile(REPO, "main", ".github/bosun.yml", GOOD);
    await approve(h, h.issue(formBody()));
    expect(dashboards(h)).toHaveLength(1);
    expect(dashboards(h)[0]?.body).not.toContain("Configuration problems");
  });

  test("a repeated config read is a conditional request answered 304", async () => {
    h = await startHarness({ config: GOOD });
    // The config is read by the scheduler's loader on every tick, and by the dashboard's Setup
    // section (what `bosun doctor` checks) at most every few minutes: each reads it once in full.
    const configReads = (since: number) => h!.fake.accounting.log.filter((e) => e.seq > since && e.route === "GET /repos/{owner}/{repo}/contents/{path}" && e.path.endsWith("bosun.yml")).map((e) => e.status);
    await approve(h, h.issue(formBody()));
    expect(configReads(0)).toEqual([200, 200]);
    let before = h.logPosition();
    await approve(h, h.issue(formBody()));
    expect(configReads(before)).toEqual([304]);
    // Past the Setup section's age both readers ask again, and an unchanged file costs 304s only.
    h.clock.advance(11 * 60_000);
    before = h.logPosition();
    await approve(h, h.issue(formBody()));
    expect(configReads(before)).toEqual([304, 304]);
    // A changed file is read in full: the 304s above were earned by an unchanged ETag.
    h.fake.setFile(REPO, "main", ".github/bosun.yml", `${GOOD}# changed\n`);
    before = h.logPosition();
    await approve(h, h.issue(formBody()));
    expect(configReads(before)).toEqual([200]);
  });

  test("a missing config is the defaults, with no problem reported", async () => {
    h = await startHarness();
    const n = h.issue(formBody());
    await approve(h, n);
    // The default pool has size 0: the item waits in the queue, nothing is dispatched.
    expect(h.labelsOf(n)).toEqual(["bosun:queued", "bosun:ready"]);
    expect(dashboards(h)).toHaveLength(1);
    expect(dashboards(h)[0]?.body).not.toContain("Configuration problems");
  });
});

describe("the dashboard issue is pinned when the app opens it", () => {
  let h: Harness | undefined;
  afterEach(async () => h?.close());

  /** Breaks the config and approves a brief: the tick reports the problem on the dashboard at once. */
  async function breakConfig(harness: Harness): Promise<void> {
    harness.fake.setFile(REPO, "main", ".github/bosun.yml", BROKEN);
    await approve(harness, harness.issue(formBody()));
  }
  const pins = (harness: Harness, since = 0) => harness.graphqlFields(since).filter((f) => f === "pinIssue");
  const appDeliveries = (harness: Harness) => harness.fake.webhooks.deliveries.filter((d) => d.status !== 200);

  test("a new dashboard is pinned with one GraphQL request; later writes never pin again", async () => {
    h = await startHarness({ config: GOOD });
    await approve(h, h.issue(formBody()));
    await breakConfig(h);
    const [dashboard] = dashboards(h);
    expect(dashboard).toMatchObject({ title: DASHBOARD_TITLE, user: BOT });
    expect(h.fake.repo(REPO).pinnedIssues).toEqual([dashboard?.number]);
    expect(pins(h)).toEqual(["pinIssue"]);

    // Unpinned by a maintainer, rewritten by the app: it stays unpinned.
    h.fake.repo(REPO).pinnedIssues.length = 0;
    const before = h.logPosition();
    h.fake.setFile(REPO, "main", ".github/bosun.yml", GOOD);
    await approve(h, h.issue(formBody()));
    expect(h.botWrites(before)).toContain(`PATCH /repos/{owner}/{repo}/issues/{issue_number} 200`);
    expect(pins(h, before)).toEqual([]);
    expect(h.fake.repo(REPO).pinnedIssues).toEqual([]);
    expect(appDeliveries(h)).toEqual([]);
  });

  test("an existing dashboard found on start is rewritten, not pinned", async () => {
    h = await startHarness({ config: GOOD });
    const existing = h.fake.addIssue(REPO, { title: DASHBOARD_TITLE, body: `${DASHBOARD_MARKER}\nan older process wrote this`, user: BOT });
    await breakConfig(h);
    expect(dashboards(h).map((d) => d.number)).toEqual([existing.number]);
    expect(dashboards(h)[0]?.body).toContain("## Configuration problems");
    expect(pins(h)).toEqual([]);
    expect(h.fake.repo(REPO).pinnedIssues).toEqual([]);
  });

  test("with 3 issues pinned already, the dashboard is still opened, unpinned, without an error, and the pin is not retried", async () => {
    h = await startHarness({ config: GOOD });
    const maintainer = h.as("maintainer");
    const pinned: number[] = [];
    for (const title of ["Roadmap", "FAQ", "Code of conduct"]) {
      const { data } = await maintainer.issues.create({ ...OWNER_REPO, title });
      await maintainer.graphql("mutation($id: ID!) { pinIssue(input: {issueId: $id}) { issue { id } } }", { id: data.node_id });
      pinned.push(data.number);
    }
    expect(h.fake.repo(REPO).pinnedIssues).toEqual(pinned);

    await breakConfig(h);
    const [dashboard] = dashboards(h);
    expect(dashboards(h)).toHaveLength(1);
    expect(dashboard?.body).toContain("## Configuration problems");
    expect(dashboard?.body).not.toMatch(/pin/i);
    expect(h.fake.repo(REPO).pinnedIssues).toEqual(pinned);
    // One refused attempt (a GraphQL error is HTTP 200), and the webhook was handled without a failure.
    expect(pins(h)).toEqual(["pinIssue"]);
    expect(appDeliveries(h)).toEqual([]);

    // The next writes update the same dashboard and do not try again.
    const before = h.logPosition();
    h.fake.setFile(REPO, "main", ".github/bosun.yml", GOOD);
    await approve(h, h.issue(formBody()));
    expect(dashboards(h).map((d) => d.number)).toEqual([dashboard?.number]);
    expect(dashboards(h)[0]?.body).not.toContain("Configuration problems");
    expect(pins(h, before)).toEqual([]);
  });
});

describe("startAppServer (what `npm start` runs)", () => {
  test("serves the app from the Probot environment: a signed webhook from the fake queues a brief", async () => {
    const h = await startHarness();
    const server = await startAppServer({ APP_ID: "42", PRIVATE_KEY: testPrivateKey(), WEBHOOK_SECRET, BOSUN_API_URL: h.fake.url, PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "fatal" });
    try {
      h.fake.webhooks.register({ url: `${server.url}/api/github/webhooks`, secret: WEBHOOK_SECRET, events: ["issues"] });
      const health = await fetch(`${server.url}/healthz`);
      expect(health.status).toBe(200);
      const n = h.issue(formBody());
      await approve(h, n);
      // Two apps (the harness's and this server) answer the same delivery; the labels converge,
      // and only the writer whose record write won posts: one snapshot (a queued item needs no status comment).
      expect(h.labelsOf(n)).toEqual(["bosun:queued", "bosun:ready"]);
      const mine = h.comments(n).filter(([author]) => author === BOT).map(([, body]) => body);
      expect(mine.filter(isSnapshotComment)).toHaveLength(1);
      expect(mine.filter(isStatusComment)).toHaveLength(0);
      expect(mine).toHaveLength(1);
      const statuses = h.fake.webhooks.deliveries.filter((d) => d.hookUrl.startsWith(server.url)).map((d) => d.status);
      expect(statuses.length).toBeGreaterThan(0);
      expect(statuses.every((s) => s === 200)).toBe(true);
    } finally {
      await server.close();
      await h.close();
    }
  });

  test("names missing variables, never values", async () => {
    await expect(startAppServer({ PRIVATE_KEY: "secret-key-material" })).rejects.toThrow(AppEnvError);
    await expect(startAppServer({ PRIVATE_KEY: "secret-key-material" })).rejects.toThrow(/APP_ID, WEBHOOK_SECRET/);
    await expect(startAppServer({ PRIVATE_KEY: "secret-key-material" })).rejects.not.toThrow(/secret-key-material/);
  });
});
