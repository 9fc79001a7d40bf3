/**
 * The intake (the tick's approvals) against an unkind GitHub: a listing that is stale right after
 * the label went on, a just-created issue that 404s for a moment, `labeled` deliveries that never
 * arrive, a read of the body's last edit that fails, and two replicas ticking at the same moment.
 * Judged from what the fake holds: comments, labels, claim records.
 */
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { RepoTicker } from "../../../src/adapters/github/tick/repo-ticker.js";
import { systemClock } from "../../../src/adapters/local/system-clock.js";
import { LISTING_LAG_MS } from "../../../src/adapters/github/tick/waits-for-listing.js";
import { MemoryJournal } from "../../../src/adapters/memory/memory-journal.js";
import { SNAPSHOT_MARKER } from "../../../src/core/brief/snapshot.js";
import { parseClaimCommit, recordFor, type ClaimRecord } from "../../../src/core/claims/claim-record.js";
import { parseConfig } from "../../../src/core/config/parse-config.js";
import { STATUS_MARKER } from "../../../src/core/scheduler/status-comment.js";
import { createTestOctokit } from "../../fake-github/test-octokit.js";
import { BOT, formBody, OWNER_REPO, REPO, startHarness, type Harness } from "./app-harness.js";

const parsed = parseConfig("pools:\n  default: {size: 2, dispatch: {kind: workflow, workflow: bosun-work.yml}}\n");
if (!parsed.ok) throw new Error("config");
const config = parsed.config;

const snapshotsOf = (h: Harness, n: number) => h.comments(n).filter(([, body]) => body.startsWith(SNAPSHOT_MARKER));
const statusOf = (h: Harness, n: number) => h.comments(n).filter(([author, body]) => author === BOT && body.startsWith(STATUS_MARKER));
const writesOn = (h: Harness, n: number, since: number) => h.fake.accounting.log.filter((e) => e.seq > since && e.login === BOT && e.method !== "GET" && new RegExp(`/issues/${n}(/|$)`).test(e.path)).map((e) => `${e.route ?? e.path} ${e.status}`);
function recordOf(h: Harness, n: number): ClaimRecord | undefined {
  const ref = `refs/bosun/claims/${n}`;
  const sha = h.fake.repo(REPO).refs.get(ref);
  const commit = sha === undefined ? undefined : h.fake.repo(REPO).commits.get(sha);
  return commit === undefined ? undefined : recordFor(parseClaimCommit(commit.message), ref);
}

/** One replica's ticker, as its own process would run it: its own client of the bot, its own caches. */
function replica(h: Harness, holder: string): RepoTicker {
  return new RepoTicker(createTestOctokit(h.fake.url, "t-bot"), { owner: "acme", repo: "app", botLogin: BOT, defaultBranch: "main", holder, clock: { ...systemClock, now: () => h.clock.now() }, journal: new MemoryJournal() });
}

describe("intake against an unkind GitHub", () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness();
    h.fake.addToken("t-bot", BOT);
    h.fake.addWorkflow(REPO, { path: ".github/workflows/bosun-work.yml", name: "bosun work", runName: "bosun #${{ inputs.item }} epoch ${{ inputs.epoch }}" });
  });
  afterEach(async () => h.close());

  test("a listing read right after labelling that does not show bosun:ready yet: the issue the webhook named is read on its own, not left for the next sweep", async () => {
    const n = h.issue(formBody());
    // The bot's first listing is from before the label was added.
    h.fake.faults.add({ kind: "stale-read", requests: 1, route: "GET /repos/{owner}/{repo}/issues", times: 1 });
    await h.as("maintainer").issues.addLabels({ ...OWNER_REPO, issue_number: n, labels: ["bosun:ready"] });
    await h.fake.webhooks.flush();
    expect(h.fake.faults.fired.map((f) => f.kind)).toContain("stale-read");
    expect(snapshotsOf(h, n).map(([author]) => author)).toEqual([BOT]);
    expect(h.labelsOf(n)).toContain("bosun:queued");
  });

  test("a just-created issue missing from a lagging listing and 404ing for a moment is read again", async () => {
    // A read replica a moment behind: the issue created now does not exist yet for the first reads.
    h.fake.faults.add({ kind: "stale-read", lagMs: 1, route: "GET /repos/{owner}/{repo}/issues", times: 1 });
    h.fake.faults.add({ kind: "stale-read", lagMs: 1, route: "GET /repos/{owner}/{repo}/issues/{issue_number}", times: 1 });
    const { data: issue } = await h.as("maintainer").issues.create({ ...OWNER_REPO, title: "A brief", body: formBody() });
    // The author is not the approver (approval.author_may_approve is off): an admin approves.
    await h.as("admin").issues.addLabels({ ...OWNER_REPO, issue_number: issue.number, labels: ["bosun:ready"] });
    await h.fake.webhooks.flush();
    expect(h.fake.accounting.log.some((e) => e.login === BOT && e.status === 404 && e.fault === "stale-read")).toBe(true);
    expect(snapshotsOf(h, issue.number).map(([author]) => author)).toEqual([BOT]);
    expect(h.labelsOf(issue.number)).toContain("bosun:queued");
  });

  test("a sweep takes in an approval whose labeled delivery was lost, in the approver's name, once; a triager's label is never an approval", async () => {
    h.fake.webhooks.configure({ drop: 1 });
    const n = h.issue(formBody());
    const byTriager = h.issue(formBody());
    await h.as("maintainer").issues.addLabels({ ...OWNER_REPO, issue_number: n, labels: ["bosun:ready"] });
    await h.as("triager").issues.addLabels({ ...OWNER_REPO, issue_number: byTriager, labels: ["bosun:ready"] });
    await h.fake.webhooks.flush();
    expect(snapshotsOf(h, n)).toEqual([]); // the delivery was lost
    const sweeper = replica(h, "sweeper");
    await sweeper.tick(config);
    expect(snapshotsOf(h, n)).toHaveLength(1);
    expect(snapshotsOf(h, n)[0]?.[1]).toContain("**mona** approved it");
    expect(recordOf(h, n)?.approval?.by).toBe("mona");
    expect(h.labelsOf(n)).toEqual(expect.arrayContaining(["bosun:ready"]));
    expect(h.labelsOf(n).some((l) => l === "bosun:queued" || l === "bosun:claimed")).toBe(true);
    // Someone without the approval role cannot approve, lost delivery or not.
    expect(h.comments(byTriager)).toEqual([]);
    expect(recordOf(h, byTriager)).toBeUndefined();
    expect(h.labelsOf(byTriager)).toEqual(["bosun:ready"]);
    // Swept again (another replica too): nothing new on either issue; the listing is a free 304 when nothing moved.
    const before = h.logPosition();
    await sweeper.tick(config);
    await replica(h, "another").tick(config);
    await sweeper.tick(config);
    expect([...writesOn(h, n, before), ...writesOn(h, byTriager, before)]).toEqual([]);
    expect(snapshotsOf(h, n)).toHaveLength(1);
    const listings = h.fake.accounting.log.filter((e) => e.seq > before && e.route === "GET /repos/{owner}/{repo}/issues" && e.login === BOT);
    expect(listings.at(-1)?.status).toBe(304);
  });

  test("an item that went to a human keeps bosun:ready but is not taken in again, and labels put on by hand change nothing", async () => {
    const ticker = replica(h, "solo");
    const n = h.issue(formBody());
    await h.as("maintainer").issues.addLabels({ ...OWNER_REPO, issue_number: n, labels: ["bosun:ready"] });
    await ticker.tick(config);
    const run = [...h.fake.repo(REPO).workflowRuns.values()].find((r) => r.inputs["item"] === String(n));
    if (run === undefined) throw new Error("not dispatched");
    // The run ends "done" with no pull request: blocked, for a human.
    h.fake.completeWorkflowRun(REPO, run.id, "success");
    // Landed as having none once GitHub's listings had time to show one (`LISTING_LAG_MS`).
    h.clock.advance(LISTING_LAG_MS);
    await ticker.tick(config);
    expect(recordOf(h, n)?.state).toBe("settled");
    expect(h.labelsOf(n)).toEqual(["bosun:needs-human", "bosun:ready"]);
    // Someone puts bosun:queued back by hand; a label on a never-approved issue says bosun:done.
    await h.as("triager").issues.addLabels({ ...OWNER_REPO, issue_number: n, labels: ["bosun:queued"] });
    const labelled = h.issue(formBody(), "done by label", ["bosun:ready", "bosun:done"]);
    const before = h.logPosition();
    const settled = recordOf(h, n);
    for (let i = 0; i < 3; i++) await ticker.tick(config);
    expect(snapshotsOf(h, n)).toHaveLength(1);
    expect(recordOf(h, n)).toEqual(settled);
    // The mirror is put right from the record; nothing else is written.
    expect(h.labelsOf(n)).toEqual(["bosun:needs-human", "bosun:ready"]);
    expect(writesOn(h, n, before).filter((w) => !w.startsWith("PUT /repos/{owner}/{repo}/issues/{issue_number}/labels"))).toEqual([]);
    expect([...h.fake.repo(REPO).workflowRuns.values()].filter((r) => r.inputs["item"] === String(n))).toHaveLength(1);
    expect(snapshotsOf(h, labelled)).toEqual([]);
    expect(recordOf(h, labelled)).toBeUndefined();
  });

  test("reading the body's last edit fails: the approval is not taken in blind, and the next tick takes it in", async () => {
    const ticker = replica(h, "solo");
    const n = h.issue(formBody());
    await h.as("maintainer").issues.addLabels({ ...OWNER_REPO, issue_number: n, labels: ["bosun:ready"] });
    h.fake.faults.add({ kind: "error", status: 502, route: "POST /graphql", times: 1 });
    await ticker.tick(config);
    expect(h.fake.faults.fired.map((f) => f.kind)).toContain("error");
    expect(recordOf(h, n)).toBeUndefined();
    expect(h.comments(n)).toEqual([]);
    await ticker.tick(config);
    expect(recordOf(h, n)).toMatchObject({ state: "held", approval: { by: "mona" } });
    expect(snapshotsOf(h, n)).toHaveLength(1);
  });

  test("a read of the last edit that lags behind the body freezes nothing: the approval waits until the text and its edit time agree", async () => {
    h.fake.webhooks.configure({ drop: 1 });
    const ticker = replica(h, "solo");
    const n = h.issue(formBody());
    await h.as("maintainer").issues.addLabels({ ...OWNER_REPO, issue_number: n, labels: ["bosun:ready"] });
    h.clock.advance(30_000);
    // GraphQL reads lag ten seconds behind (armed before the edit, so the fake keeps the past).
    h.fake.faults.add({ kind: "stale-read", lagMs: 10_000, route: "POST /graphql", times: 1 });
    await h.as("triager").issues.update({ ...OWNER_REPO, issue_number: n, body: formBody({ "Allowed paths": "**" }) });
    h.clock.advance(1_000);
    // The listing shows the edited body; the lagging read says the body was never edited (and shows the old one).
    await ticker.tick(config);
    expect(h.fake.faults.fired.map((f) => f.kind)).toContain("stale-read");
    expect(snapshotsOf(h, n)).toEqual([]);
    expect(recordOf(h, n)).toBeUndefined();
    // Reads that agree: the edit came after the approval, so nothing is frozen and nothing runs.
    await ticker.tick(config);
    expect(snapshotsOf(h, n)).toEqual([]);
    expect(recordOf(h, n)).toMatchObject({ state: "approved", approval: { by: "mona" } });
    expect(recordOf(h, n)?.briefHash).toBeUndefined();
    expect([...h.fake.repo(REPO).workflowRuns.values()]).toEqual([]);
  });

  test("a re-approval of an item waiting for one is taken in by a sweep, its deliveries lost", async () => {
    h.fake.webhooks.configure({ drop: 1 });
    const ticker = replica(h, "solo");
    const n = h.issue(formBody());
    await h.as("maintainer").issues.addLabels({ ...OWNER_REPO, issue_number: n, labels: ["bosun:ready"] });
    h.clock.advance(30_000);
    await h.as("triager").issues.update({ ...OWNER_REPO, issue_number: n, body: formBody({ "Size cap": "9000" }) });
    await ticker.tick(config);
    expect(recordOf(h, n)?.briefHash).toBeUndefined();
    await ticker.tick(config);
    // The maintainer reads the new text and approves it again; no webhook arrives.
    h.clock.advance(30_000);
    await h.as("maintainer").issues.removeLabel({ ...OWNER_REPO, issue_number: n, name: "bosun:ready" });
    await h.as("maintainer").issues.addLabels({ ...OWNER_REPO, issue_number: n, labels: ["bosun:ready"] });
    await ticker.tick(config);
    expect(snapshotsOf(h, n)).toHaveLength(1);
    expect(snapshotsOf(h, n)[0]?.[1]).toContain('"size_cap": 9000');
    expect(recordOf(h, n)).toMatchObject({ state: "approved", approval: { by: "mona" }, briefHash: expect.stringMatching(/^sha256:/) as unknown });
    expect(h.labelsOf(n)).toEqual(["bosun:queued", "bosun:ready"]);
    // The hold is off: the next tick runs the text approved now.
    await ticker.tick(config);
    expect(recordOf(h, n)?.state).toBe("held");
  });

  test("two replicas ticking at the same moment take in each approval once: one record, one snapshot (and no status comment: nothing to say)", async () => {
    h.fake.webhooks.configure({ drop: 1 });
    const issues = [h.issue(formBody()), h.issue(formBody()), h.issue(formBody({ "Size cap": "lots" }))];
    for (const n of issues) await h.as("maintainer").issues.addLabels({ ...OWNER_REPO, issue_number: n, labels: ["bosun:ready"] });
    const [a, b] = [replica(h, "replica-a"), replica(h, "replica-b")];
    for (let round = 0; round < 3; round++) await Promise.all([a.tick(config), b.tick(config)]);
    const [one, two, bad] = issues as [number, number, number];
    for (const n of [one, two]) {
      expect(snapshotsOf(h, n)).toHaveLength(1);
      expect(statusOf(h, n)).toHaveLength(0);
      expect(recordOf(h, n)?.state).toBe("held");
    }
    expect(h.comments(bad)).toHaveLength(1);
    expect(recordOf(h, bad)?.state).toBe("invalid");
    // Pool of two: each valid item was dispatched once, at epoch 1.
    expect([...h.fake.repo(REPO).workflowRuns.values()].map((r) => [Number(r.inputs["item"]), r.inputs["epoch"]]).sort()).toEqual([
      [one, "1"],
      [two, "1"],
    ]);
  });
});
