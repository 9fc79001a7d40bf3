/**
 * The intake against an unkind GitHub: reads that are stale right after the label was added, a
 * just-created issue that 404s for a moment, a `labeled` delivery that never arrives, and two
 * replicas taking in one approval at once. Judged from what the fake holds (comments, labels).
 */
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { SNAPSHOT_MARKER } from "../../../src/core/brief/snapshot.js";
import { parseConfig } from "../../../src/core/config/parse-config.js";
import type { AppOctokit } from "../../../src/app/app-octokit.js";
import { runIntake, type IntakeSite } from "../../../src/app/intake/run-intake.js";
import { createApprovalSweeper } from "../../../src/app/intake/sweep-approvals.js";
import { octokitSchedulerGitHub } from "../../../src/app/scheduler/octokit-scheduler-github.js";
import { createTestOctokit } from "../../fake-github/test-octokit.js";
import { BOT, formBody, OWNER_REPO, REPO, startHarness, type Harness } from "./app-harness.js";

const snapshotsOf = (h: Harness, n: number) => h.comments(n).filter(([, body]) => body.startsWith(SNAPSHOT_MARKER));
const parsed = parseConfig("pools:\n  default: {size: 2, dispatch: {kind: comment}}\n");
if (!parsed.ok) throw new Error("config");
const config = parsed.config;
const quiet = { info: () => undefined, debug: () => undefined };

/** One app replica's intake, as its own process would run it: its own client of the bot. */
function replica(h: Harness): IntakeSite {
  return { octokit: createTestOctokit(h.fake.url, "t-bot") as unknown as AppOctokit, repo: OWNER_REPO, log: quiet, labels: () => Promise.resolve(), sleep: () => Promise.resolve() };
}

describe("intake against an unkind GitHub", () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness();
    h.fake.addToken("t-bot", BOT);
  });
  afterEach(async () => h.close());

  test("a read right after labelling that does not show bosun:ready yet is read again, not taken as a withdrawal", async () => {
    const n = h.issue(formBody());
    // The bot's first read of the issue is from before the label was added.
    h.fake.faults.add({ kind: "stale-read", requests: 1, route: "GET /repos/{owner}/{repo}/issues/{issue_number}", times: 1 });
    await h.as("maintainer").issues.addLabels({ ...OWNER_REPO, issue_number: n, labels: ["bosun:ready"] });
    await h.fake.webhooks.flush();
    expect(h.fake.faults.fired.map((f) => f.kind)).toContain("stale-read");
    expect(snapshotsOf(h, n).map(([author]) => author)).toEqual([BOT]);
    expect(h.labelsOf(n)).toContain("bosun:queued");
  });

  test("a just-created issue that 404s for a moment is read again", async () => {
    // A read replica a moment behind: the issue created now does not exist yet for the first read.
    h.fake.faults.add({ kind: "stale-read", lagMs: 1, route: "GET /repos/{owner}/{repo}/issues/{issue_number}", times: 1 });
    const { data: issue } = await h.as("maintainer").issues.create({ ...OWNER_REPO, title: "A brief", body: formBody() });
    await h.as("maintainer").issues.addLabels({ ...OWNER_REPO, issue_number: issue.number, labels: ["bosun:ready"] });
    await h.fake.webhooks.flush();
    expect(h.fake.accounting.log.some((e) => e.login === BOT && e.status === 404 && e.fault === "stale-read")).toBe(true);
    expect(snapshotsOf(h, issue.number).map(([author]) => author)).toEqual([BOT]);
    expect(h.labelsOf(issue.number)).toContain("bosun:queued");
  });

  test("the sweep takes in an approval whose labeled delivery was lost, in the approver's name, once", async () => {
    h.fake.webhooks.configure({ drop: 1 });
    const n = h.issue(formBody());
    const byTriager = h.issue(formBody());
    await h.as("maintainer").issues.addLabels({ ...OWNER_REPO, issue_number: n, labels: ["bosun:ready"] });
    await h.as("triager").issues.addLabels({ ...OWNER_REPO, issue_number: byTriager, labels: ["bosun:ready"] });
    await h.fake.webhooks.flush();
    expect(snapshotsOf(h, n)).toEqual([]); // the delivery was lost
    const sweeper = createApprovalSweeper();
    const site = replica(h);
    expect((await sweeper.sweep(site, BOT, config)).approvals).toEqual([n, byTriager]);
    expect(snapshotsOf(h, n)).toHaveLength(1);
    expect(snapshotsOf(h, n)[0]?.[1]).toContain("**mona** approved it");
    expect(h.labelsOf(n)).toContain("bosun:queued");
    // Someone without write access cannot approve, lost delivery or not.
    expect(snapshotsOf(h, byTriager)).toEqual([]);
    expect(h.labelsOf(byTriager)).not.toContain("bosun:queued");
    // Swept again: nothing new for the queued one; the listing is a free 304 when nothing moved.
    await sweeper.sweep(site, BOT, config);
    expect(snapshotsOf(h, n)).toHaveLength(1);
    const before = h.logPosition();
    await sweeper.sweep(site, BOT, config);
    await sweeper.sweep(site, BOT, config);
    const listings = h.fake.accounting.log.filter((e) => e.seq > before && e.route === "GET /repos/{owner}/{repo}/issues");
    expect(listings.map((e) => e.status)).toEqual([304, 304]);
  });

  test("an item that landed (done, needs a human) keeps bosun:ready but is not taken in again", async () => {
    const n = h.issue(formBody(), "done", ["bosun:ready", "bosun:done"]);
    const m = h.issue(formBody(), "stuck", ["bosun:ready", "bosun:needs-human"]);
    expect((await createApprovalSweeper().sweep(replica(h), BOT, config)).approvals).toEqual([]);
    expect([...snapshotsOf(h, n), ...snapshotsOf(h, m)]).toEqual([]);
  });

  test("two replicas taking in one approval at once leave one snapshot once the queue is read", async () => {
    const issues = [h.issue(formBody()), h.issue(formBody()), h.issue(formBody())];
    h.fake.webhooks.configure({ drop: 1 });
    for (const n of issues) await h.as("maintainer").issues.addLabels({ ...OWNER_REPO, issue_number: n, labels: ["bosun:ready"] });
    const [a, b] = [replica(h), replica(h)];
    // Both hear of every approval (a redelivery, or a webhook on one and the sweep on the other) at the same moment.
    for (const n of issues) {
      const event = { kind: "labeled", label: "bosun:ready", sender: "mona", senderCanWrite: false } as const;
      await Promise.all([runIntake(a, n, event, BOT, config), runIntake(b, n, event, BOT, config)]);
    }
    const posted = issues.map((n) => snapshotsOf(h, n).length);
    // The scheduler of either replica reads the queue: the oldest of identical snapshots stays.
    const github = octokitSchedulerGitHub(createTestOctokit(h.fake.url, "t-bot"), { owner: "acme", repo: "app", botLogin: BOT, defaultBranch: "main" });
    const queued = await github.listQueued("bosun:queued");
    for (const issue of queued) await github.snapshot(issue);
    const kept = issues.map((n) => snapshotsOf(h, n).length);
    expect({ posted: posted.every((p) => p >= 1), kept }).toEqual({ posted: true, kept: [1, 1, 1] });
    // The one kept is the oldest: what both replicas' schedulers agree on.
    for (const n of issues) {
      const ids = [...h.fake.repo(REPO).comments.values()].filter((c) => c.issueNumber === n && c.body.startsWith(SNAPSHOT_MARKER)).map((c) => c.id);
      expect(ids).toHaveLength(1);
    }
  });
});
