/**
 * How the tick reads GitHub: conditional reads when nothing changed, runs past the first page, a
 * listing that skipped an issue, pages that shift under the listing, a fresh process's few
 * queries, and the read-back after a batch of unknown outcome.
 */
import { afterEach, describe, expect, it } from "vitest";
import { octokitClaimRefs, type ClaimRefsApi } from "../../../src/adapters/github/claim-refs-api.js";
import { GitHubClaimStore } from "../../../src/adapters/github/github-claim-store.js";
import { octokitTickGitHub } from "../../../src/adapters/github/tick/octokit-tick-github.js";
import { RepoTicker } from "../../../src/adapters/github/tick/repo-ticker.js";
import { newTickMemory, runTick } from "../../../src/adapters/github/tick/run-tick.js";
import type { TickGitHub } from "../../../src/adapters/github/tick/tick-github.js";
import { LISTING_LAG_MS } from "../../../src/adapters/github/tick/waits-for-listing.js";
import { MemoryJournal } from "../../../src/adapters/memory/memory-journal.js";
import { parseClaimMessage } from "../../../src/core/claims/claim-record.js";
import { createTestOctokit } from "../../fake-github/test-octokit.js";
import { closedThenRequeued, LABEL_POOL, openedAsLeaseRunsOut } from "./label-pool-moves.js";
import { BOT, REPO, schedulerFixture } from "./scheduler-fixture.js";

type Fixture = Awaited<ReturnType<typeof schedulerFixture>>;
let f: Fixture | undefined;
afterEach(async () => {
  await f?.fake.close();
  f = undefined;
});

const ONE = `pools:\n  default: {size: 1, dispatch: {kind: workflow, workflow: bosun-work.yml}}\nlease: 10m\n`;

const recordOf = (fx: Fixture, n: number) => {
  const ref = `refs/bosun/claims/${n}`;
  const sha = fx.fake.repo(REPO).refs.get(ref);
  return sha === undefined ? undefined : parseClaimMessage(fx.fake.repo(REPO).commits.get(sha)?.message ?? "", ref);
};

function tickGitHub(fx: Fixture): TickGitHub {
  return octokitTickGitHub(createTestOctokit(fx.fake.url, "t-bot"), { owner: "acme", repo: "app", botLogin: BOT, defaultBranch: "main", now: () => fx.clock.now() });
}

/** The item granted, its run ended with its pull request open, replica a has it in review: answers the pull request. */
async function inReview(fx: Fixture, a: ReturnType<Fixture["replica"]>, n: number) {
  await a.tick();
  const pull = fx.fake.addPull(REPO, { head: `bosun/${n}-work`, base: "main", body: `Closes #${n}`, user: "bosun[bot]" });
  fx.fake.completeWorkflowRun(REPO, fx.runsOf(n)[0]!.id, "success");
  a.ticker.invalidate("pulls");
  await a.tick();
  expect(recordOf(fx, n)).toMatchObject({ state: "review", pull: pull.number });
  return pull;
}

describe("the tick's reads on the fake GitHub", () => {
  it("when nothing changed, a tick's reads are all conditional and answered 304, and it writes nothing", async () => {
    f = await schedulerFixture(ONE);
    const n = await f.queue("busy");
    await f.queue("waiting");
    const a = f.replica("a");
    await a.tick();
    f.fake.repo(REPO).workflowRuns.get(f.runsOf(n)[0]!.id)!.status = "in_progress";
    await a.tick();
    f.fake.accounting.reset();
    const quiet = await a.tick();
    expect(quiet.dispatched).toEqual([]);
    const log = f.fake.accounting.log;
    expect(log.filter((e) => e.method === "GET").length).toBeGreaterThan(0);
    expect(log.filter((e) => e.method === "GET" && e.status !== 304).map((e) => e.route)).toEqual([]);
    expect(log.filter((e) => e.kind === "create" || e.kind === "write").map((e) => e.route)).toEqual([]);
  });

  it("finds a long run that newer runs pushed off the first page, by its run name, from a replica that did not dispatch it", async () => {
    f = await schedulerFixture(ONE);
    const n = await f.queue("long-one");
    await f.replica("a").tick();
    // 150 later dispatches of the same workflow by the App (other work): the item's run is now on page 2.
    for (let i = 0; i < 150; i++) await f.octokit.actions.createWorkflowDispatch({ owner: "acme", repo: "app", workflow_id: "bosun-work.yml", ref: "main", inputs: { item: "other", epoch: String(i), brief_hash: "x" } });
    f.fake.completeWorkflowRun(REPO, f.runsOf(n)[0]!.id, "failure");
    const t = await f.replica("b").tick();
    expect(t.view.landed).toMatchObject([{ n, disposition: "human" }]);
  });

  it("an in-flight item the listing missed is read on its own, not ended as gone; closed while its run lives, it keeps its claim until the run ends", async () => {
    f = await schedulerFixture(ONE);
    const n = await f.queue("busy");
    await f.replica("a").tick();
    f.fake.repo(REPO).workflowRuns.get(f.runsOf(n)[0]!.id)!.status = "in_progress";
    // A listing that skipped the issue (as offset pages do when issues leave the list meanwhile).
    const real = tickGitHub(f);
    const github: TickGitHub = { ...real, listApproved: async (label) => (await real.listApproved(label)).filter((i) => i.number !== n) };
    const missing = new RepoTicker(createTestOctokit(f.fake.url, "t-bot"), { owner: "acme", repo: "app", botLogin: BOT, defaultBranch: "main", holder: "b", clock: f.clock, journal: new MemoryJournal(), github });
    const t = await missing.tick(f.config);
    expect(t.view.landed).toEqual([]);
    expect(t.view.inFlight.map((i) => i.n)).toEqual([n]);
    expect(f.labelsOf(n)).toContain("bosun:claimed");
    await f.maintainer.issues.update({ owner: "acme", repo: "app", issue_number: n, state: "closed", state_reason: "not_planned" });
    expect((await missing.tick(f.config)).view.landed).toEqual([]);
    f.fake.completeWorkflowRun(REPO, f.runsOf(n)[0]!.id, "success");
    // Ended with no pull request: landed once the listing's lag is over.
    f.clock.advance(LISTING_LAG_MS);
    expect((await missing.tick(f.config)).view.landed.map((l) => l.n)).toEqual([n]);
    expect(f.runsOf(n)).toHaveLength(1);
  });

  it("several in-flight items whose issues were closed at once are found in one read of the recently closed issues, not one read each", async () => {
    f = await schedulerFixture(`pools:\n  default: {size: 3, dispatch: {kind: workflow, workflow: bosun-work.yml}}\nlease: 10m\n`);
    const items = [await f.queue("one"), await f.queue("two"), await f.queue("three")];
    const a = f.replica("a");
    await a.tick();
    for (const n of items) {
      f.fake.repo(REPO).workflowRuns.get(f.runsOf(n)[0]!.id)!.status = "in_progress";
      await f.maintainer.issues.update({ owner: "acme", repo: "app", issue_number: n, state: "closed", state_reason: "not_planned" });
    }
    f.fake.accounting.reset();
    const t = await a.tick();
    // Closed while their runs live: still in flight, none taken for gone.
    expect(t.view.inFlight.map((i) => i.n).sort()).toEqual([...items].sort());
    expect(t.view.landed).toEqual([]);
    const reads = (route: string): number => f!.fake.accounting.log.filter((e) => e.route === route).length;
    expect(reads("GET /repos/{owner}/{repo}/issues/{issue_number}")).toBe(0);
    expect(reads("GET /repos/{owner}/{repo}/issues")).toBe(2);
  });

  it("an item in review whose issue a merge closed is seen merged even when this replica's pull request listing is older than the merge (its webhook went elsewhere)", async () => {
    f = await schedulerFixture(ONE);
    const n = await f.queue("merged-elsewhere");
    const a = f.replica("a");
    const pull = await inReview(f, a, n);
    // The maintainer merges; GitHub closes the issue. Replica a hears nothing and its listing is a minute old.
    Object.assign(pull, { merged: true, mergedAt: f.clock.now(), mergeCommitSha: pull.headSha });
    Object.assign(f.fake.repo(REPO).issues.get(pull.number)!, { state: "closed" });
    Object.assign(f.fake.repo(REPO).issues.get(n)!, { state: "closed", stateReason: "completed" });
    f.clock.advance(60_000);
    const t = await a.tick();
    expect(recordOf(f, n)).toMatchObject({ state: "settled", outcome: { ok: true } });
    expect(t.view.idle).toBe(true);
  });

  it("an item in review whose pull request this replica's listing shows closed, since reopened (its webhook went elsewhere), is not sent to a human", async () => {
    f = await schedulerFixture(ONE);
    const n = await f.queue("reopened-elsewhere");
    const a = f.replica("a");
    const pull = await inReview(f, a, n);
    // Closed by mistake, and listed so by replica a (as a tick, or a pull_request webhook, would).
    Object.assign(f.fake.repo(REPO).issues.get(pull.number)!, { state: "closed", closedAt: f.clock.now() });
    a.ticker.invalidate("pulls");
    await a.ticker.github.linkedPulls();
    // Reopened at once; replica a hears nothing, and its listing is seconds old.
    Object.assign(f.fake.repo(REPO).issues.get(pull.number)!, { state: "open", closedAt: null });
    f.clock.advance(10_000);
    await a.tick();
    expect(recordOf(f, n)).toMatchObject({ state: "review", pull: pull.number });
    expect(f.labelsOf(n)).not.toContain("bosun:needs-human");
  });

  // The worker opens its pull request and its run ends; replica a heard neither (its listing is
  // fresh, from a tick before): it lists again before landing the run as having none, or on another.
  it.each([
    ["with nothing else listed for the item", async () => {}],
    [
      "when its listing showed an older, closed pull request for the item (someone's earlier attempt)",
      async (fx: Fixture, n: number, a: ReturnType<Fixture["replica"]>) => {
        fx.fake.addPull(REPO, { head: "rob-try", base: "main", body: `Closes #${n}`, user: "rob", state: "closed" });
        a.ticker.invalidate("pulls");
        await a.tick();
      },
    ],
    [
      "when its listing showed someone else's open pull request from a fork that says it closes the item",
      async (fx: Fixture, n: number, a: ReturnType<Fixture["replica"]>) => {
        const foreign = fx.fake.addPull(REPO, { head: `bosun/${n}-work-mallory`, base: "main", body: `Closes #${n}`, user: "mallory", headRepo: "mallory/app" });
        a.ticker.invalidate("pulls");
        await a.tick();
        expect(recordOf(fx, n)).toMatchObject({ state: "held" });
        expect(foreign.number).toBeGreaterThan(0);
      },
    ],
  ] as const)("a run that ended with its pull request opened after this replica's listing goes to review on that pull request, %s", async (_name, before) => {
    f = await schedulerFixture(ONE);
    const n = await f.queue("opened-elsewhere");
    const a = f.replica("a");
    await a.tick();
    // What else the listing shows of the item by then (listed by a tick, as a pull request webhook makes it).
    await (before as (fx: Fixture, n: number, a: ReturnType<Fixture["replica"]>) => Promise<void>)(f, n, a);
    const pull = f.fake.addPull(REPO, { head: `bosun/${n}-work`, base: "main", body: `Closes #${n}`, user: "bosun[bot]" });
    f.fake.completeWorkflowRun(REPO, f.runsOf(n)[0]!.id, "success");
    f.clock.advance(10_000);
    await a.tick();
    expect(recordOf(f, n)).toMatchObject({ state: "review", pull: pull.number });
    expect(f.labelsOf(n)).not.toContain("bosun:needs-human");
  });

  it("a run that ended moments ago, its pull request missing from a lagging listing, keeps its claim until the listing can catch up; then it goes to review", async () => {
    f = await schedulerFixture(ONE);
    const n = await f.queue("lagging-listing");
    // Replica b's pull request listings come from a replica of GitHub that has not seen the new one yet.
    let hidden: number | undefined;
    const real = tickGitHub(f);
    const github: TickGitHub = { ...real, linkedPulls: async () => new Map([...(await real.linkedPulls())].map(([k, links]) => [k, links.filter((p) => p.number !== hidden)])) };
    const b = new RepoTicker(createTestOctokit(f.fake.url, "t-bot"), { owner: "acme", repo: "app", botLogin: BOT, defaultBranch: "main", holder: "b", clock: f.clock, journal: new MemoryJournal(), github });
    await b.tick(f.config);
    const pull = f.fake.addPull(REPO, { head: `bosun/${n}-work`, base: "main", body: `Closes #${n}`, user: "bosun[bot]" });
    hidden = pull.number;
    f.fake.completeWorkflowRun(REPO, f.runsOf(n)[0]!.id, "success");
    f.clock.advance(5_000);
    await b.tick(f.config);
    expect(recordOf(f, n)).toMatchObject({ state: "held", epoch: 1 });
    expect(f.labelsOf(n)).not.toContain("bosun:needs-human");
    hidden = undefined;
    f.clock.advance(LISTING_LAG_MS);
    await b.tick(f.config);
    expect(recordOf(f, n)).toMatchObject({ state: "review", epoch: 1, pull: pull.number });
  });

  it("a run that ended with no pull request at all still goes to a human, once the listing's lag is over", async () => {
    f = await schedulerFixture(ONE);
    const n = await f.queue("no-pull");
    const a = f.replica("a");
    await a.tick();
    f.fake.completeWorkflowRun(REPO, f.runsOf(n)[0]!.id, "success");
    f.clock.advance(5_000);
    await a.tick();
    expect(recordOf(f, n)).toMatchObject({ state: "held" });
    f.clock.advance(60_000);
    await a.tick();
    expect(recordOf(f, n)).toMatchObject({ state: "settled", outcome: { disposition: "human" } });
    expect(f.labelsOf(n)).toContain("bosun:needs-human");
  });

  it("a label worker whose pull request opened after this replica's listing is not taken back when its lease runs out: it went to review", async () => {
    f = await schedulerFixture(LABEL_POOL);
    const n = await f.queue("label-opened-elsewhere");
    const a = f.replica("a");
    await a.tick();
    const pull = await openedAsLeaseRunsOut(f, a, n);
    expect(recordOf(f, n)).toMatchObject({ state: "review", epoch: 1, pull: pull.number });
  });

  it("a requeued label item whose listing shows only its earlier attempt's closed pull request relists before it is taken back at the lease's end: the new pull request went to review", async () => {
    f = await schedulerFixture(LABEL_POOL);
    const n = await f.queue("requeued-opened-elsewhere");
    const a = f.replica("a");
    await a.tick();
    await closedThenRequeued(f, a, n);
    const pull = await openedAsLeaseRunsOut(f, a, n);
    expect(recordOf(f, n)).toMatchObject({ state: "review", epoch: 2, pull: pull.number });
  });

  it("a label worker's pull request this replica's listing shows closed, since reopened (its webhook went elsewhere), does not send the item to a human: it went to review", async () => {
    f = await schedulerFixture(`pools:\n  default: {size: 1, dispatch: {kind: label, label: fix-me}}\nlease: 10m\n`);
    const n = await f.queue("label-reopened-elsewhere");
    const a = f.replica("a");
    await a.tick();
    f.clock.advance(5_000);
    const pull = f.fake.addPull(REPO, { head: `bosun/${n}-work`, base: "main", body: `Closes #${n}`, user: "agent" });
    Object.assign(f.fake.repo(REPO).issues.get(pull.number)!, { state: "closed", closedAt: f.clock.now() });
    // Replica a lists it closed (as a tick, or a pull_request webhook, would); it is reopened at once, and a hears nothing.
    a.ticker.invalidate("pulls");
    await a.ticker.github.linkedPulls();
    Object.assign(f.fake.repo(REPO).issues.get(pull.number)!, { state: "open", closedAt: null });
    f.clock.advance(10_000);
    await a.tick();
    expect(recordOf(f, n)).toMatchObject({ state: "review", epoch: 1, pull: pull.number });
  });

  it("a replica that grants items another took in checks their snapshots in one query, not one comments read each, and posts none twice", async () => {
    f = await schedulerFixture(`pools:\n  default: {size: 0, dispatch: {kind: workflow, workflow: bosun-work.yml}}\nlease: 10m\n`);
    const items = [await f.queue("one"), await f.queue("two"), await f.queue("three")];
    await f.replica("a").tick();
    const b = f.replica("b", undefined, { ...f.config, pools: { default: { size: 3, tier: "standard", dispatch: { kind: "workflow", workflow: "bosun-work.yml" } } } });
    f.fake.accounting.reset();
    const t = await b.tick();
    expect([...t.dispatched].sort()).toEqual([...items].sort());
    for (const n of items) expect(f.commentsOf(n)).toEqual([["bosun[bot]", "<!-- bosun:snapshot -->"]]);
    expect(f.fake.accounting.log.filter((e) => e.route === "GET /repos/{owner}/{repo}/issues/{issue_number}/comments")).toEqual([]);
  });

  it("a grant whose snapshot the query does not show (its approver died before posting it) reads the comments fresh, posts the snapshot once, then dispatches", async () => {
    f = await schedulerFixture(`pools:\n  default: {size: 0, dispatch: {kind: workflow, workflow: bosun-work.yml}}\nlease: 10m\n`);
    const n = await f.queue("one");
    await f.replica("a").tick();
    // The approver's snapshot is gone (as if it died right after its batch).
    const repo = f.fake.repo(REPO);
    for (const [id, c] of repo.comments) if (c.issueNumber === n) repo.comments.delete(id);
    const b = f.replica("b", undefined, { ...f.config, pools: { default: { size: 1, tier: "standard", dispatch: { kind: "workflow", workflow: "bosun-work.yml" } } } });
    const t = await b.tick();
    expect(t.dispatched).toEqual([n]);
    expect(f.commentsOf(n)).toEqual([["bosun[bot]", "<!-- bosun:snapshot -->"]]);
  });

  it("lists every approved issue even when issues leave the list between its pages", async () => {
    f = await schedulerFixture();
    const fx = f;
    const numbers = Array.from({ length: 130 }, (_, i) => fx.fake.addIssue(REPO, { title: `q${i}`, labels: ["bosun:ready"] }).number);
    const client = createTestOctokit(fx.fake.url, "t-bot");
    // Right after the first page is read, the first three issues leave the list: page 2 now starts
    // three issues later, and a single pass would never see three of them.
    let shifted = false;
    client.hook.after("request", (_response, options) => {
      if (shifted || !String(options.url).includes("/issues") || options["page"] !== 1) return;
      shifted = true;
      for (const n of numbers.slice(0, 3)) fx.fake.repo(REPO).issues.get(n)!.labels = [];
    });
    const github = octokitTickGitHub(client, { owner: "acme", repo: "app", botLogin: BOT, defaultBranch: "main", now: () => fx.clock.now() });
    const listed = new Set((await github.listApproved("bosun:ready")).map((i) => i.number));
    expect(shifted).toBe(true);
    for (const n of numbers.slice(3)) expect(listed.has(n)).toBe(true);
  });

  it("a fresh process (an Action run) reads the claim records in a few queries, not one request per item", async () => {
    f = await schedulerFixture(`pools:\n  default: {size: 2, dispatch: {kind: workflow, workflow: bosun-work.yml}}\nlease: 10m\n`);
    const items: number[] = [];
    for (let i = 0; i < 8; i++) items.push(await f.queue(`item-${i}`));
    // Ticks by other processes: every item's record written, some landed, some held.
    for (const holder of ["a", "b", "c"]) {
      await f.replica(holder).tick();
      for (const n of items) for (const r of f.runsOf(n)) if (r.status !== "completed") f.fake.completeWorkflowRun(REPO, r.id, "failure");
    }
    f.fake.accounting.reset();
    const cold = await f.replica("fresh").tick();
    expect(cold.view.landed).toHaveLength(2);
    expect(cold.dispatched).toHaveLength(2);
    const count = (route: string): number => f!.fake.accounting.log.filter((e) => e.route === route).length;
    expect(count("GET /repos/{owner}/{repo}/git/commits/{commit_sha}")).toBe(0);
    // The repository's node id (for `updateRefs`) came with the records' query.
    expect(count("GET /repos/{owner}/{repo}")).toBe(0);
    expect(count("GET /repos/{owner}/{repo}/git/matching-refs/{ref}") + count("GET /repos/{owner}/{repo}/git/refs/{ref}")).toBeLessThanOrEqual(2);
    expect(f.fake.accounting.log.filter((e) => e.route === "POST /graphql" && e.kind === "read").length).toBeLessThanOrEqual(3);
  });

  it("new approvals taken in by one tick read their bodies' edit times in one query, not one each; one the query cannot answer is asked on its own", async () => {
    f = await schedulerFixture(`pools:\n  default: {size: 0, dispatch: {kind: workflow, workflow: bosun-work.yml}}\n`);
    const items: number[] = [];
    for (let i = 0; i < 6; i++) items.push(await f.queue(`item-${i}`));
    const queries = (): number => f!.fake.accounting.log.filter((e) => e.route === "POST /graphql" && e.kind === "read").length;
    f.fake.accounting.reset();
    await f.replica("a").tick();
    for (const n of items) expect(recordOf(f, n)).toMatchObject({ state: "approved", approval: { by: "mona" } });
    expect(queries()).toBe(1);
    // The next approvals' query fails once: each is then asked on its own, and still taken in this tick.
    const more = [await f.queue("late-0"), await f.queue("late-1")];
    f.fake.faults.add({ kind: "error", status: 502, route: "POST /graphql", times: 1 });
    f.fake.accounting.reset();
    await f.replica("a").tick();
    for (const n of more) expect(recordOf(f, n)).toMatchObject({ state: "approved" });
    // The failed query (accounted before it was read as one), then one query per approval.
    expect(f.fake.faults.fired.map((x) => x.kind)).toEqual(["error"]);
    expect(queries()).toBe(2);
  });

  it("several approvals one tick needs are read from the repository's newest issue events in one request; one those events do not show is read from its own", async () => {
    f = await schedulerFixture(`pools:\n  default: {size: 0, dispatch: {kind: workflow, workflow: bosun-work.yml}}\n`);
    // An old approval, pushed off the repository's newest events by 250 later label events elsewhere.
    const old = await f.queue("old");
    const noise = f.fake.addIssue(REPO, { title: "noise", body: "", user: "tia" });
    for (let i = 0; i < 125; i++) {
      await f.maintainer.issues.addLabels({ owner: "acme", repo: "app", issue_number: noise.number, labels: ["chatter"] });
      await f.maintainer.issues.removeLabel({ owner: "acme", repo: "app", issue_number: noise.number, name: "chatter" });
    }
    const fresh = [await f.queue("new-0"), await f.queue("new-1"), await f.queue("new-2")];
    f.fake.accounting.reset();
    await f.replica("a").tick();
    for (const n of [old, ...fresh]) expect(recordOf(f, n)).toMatchObject({ state: "approved", approval: { by: "mona" } });
    const reads = (route: string): string[] => f!.fake.accounting.log.filter((e) => e.route === route).map((e) => e.path);
    expect(reads("GET /repos/{owner}/{repo}/issues/events")).toHaveLength(2);
    expect(reads("GET /repos/{owner}/{repo}/issues/{issue_number}/events")).toEqual([`/repos/acme/app/issues/${old}/events`]);
  });

  it("a page of the repository's issue events that is not newest first (GitHub does not document the order) settles no approval: each issue's own events are read", async () => {
    f = await schedulerFixture(`pools:\n  default: {size: 0, dispatch: {kind: workflow, workflow: bosun-work.yml}}\n`);
    const items = [await f.queue("a"), await f.queue("b"), await f.queue("c")];
    // Put back and taken off again by someone: the oldest events of the label are not the latest.
    await f.reapprove(items[0]!);
    const client = createTestOctokit(f.fake.url, "t-bot");
    const list = client.rest.issues.listEventsForRepo.bind(client.rest.issues);
    Object.assign(client.rest.issues, { listEventsForRepo: async (params: Parameters<typeof list>[0]) => {
      const answer = await list(params);
      return { ...answer, data: [...answer.data].reverse() };
    } });
    const github = octokitTickGitHub(client, { owner: "acme", repo: "app", botLogin: BOT, defaultBranch: "main", now: () => f!.clock.now() });
    const ticker = new RepoTicker(client, { owner: "acme", repo: "app", botLogin: BOT, defaultBranch: "main", holder: "a", clock: f.clock, journal: new MemoryJournal(), github });
    f.fake.accounting.reset();
    await ticker.tick(f.config);
    const latest = f.fake.repo(REPO).issues.get(items[0]!)!.events.filter((e) => e.event === "labeled" && e.label === "bosun:ready").at(-1)!;
    expect(recordOf(f, items[0]!)).toMatchObject({ state: "approved", approval: { id: latest.id } });
    for (const n of items.slice(1)) expect(recordOf(f, n)).toMatchObject({ state: "approved" });
    expect(f.fake.accounting.log.filter((e) => e.route === "GET /repos/{owner}/{repo}/issues/{issue_number}/events")).toHaveLength(3);
  });

  it("a batch that landed behind an error is read back through a listing that fails once, and its grants are dispatched", async () => {
    f = await schedulerFixture(ONE);
    const n = await f.queue("behind-an-error");
    const real = octokitClaimRefs(createTestOctokit(f.fake.url, "t-bot"), "acme", "app");
    let wrote = false;
    let failedOnce = false;
    const refs: ClaimRefsApi = {
      ...real,
      updateRefs: async (updates) => {
        await real.updateRefs(updates);
        wrote = true;
        return { unknown: "502 Bad Gateway" };
      },
      listRefs: async (prefix) => {
        if (wrote && !failedOnce) {
          failedOnce = true;
          throw new Error("503 Service Unavailable");
        }
        return real.listRefs(prefix);
      },
    };
    const store = new GitHubClaimStore({ refs, prefix: f.config.claims.ref_prefix, signer: BOT });
    const t = await runTick({ github: tickGitHub(f), store, config: f.config, clock: f.clock, journal: new MemoryJournal(), holder: "a", botLogin: BOT }, newTickMemory());
    expect(failedOnce).toBe(true);
    expect(t.dispatched).toEqual([n]);
    expect(f.runsOf(n)).toMatchObject([{ epoch: 1 }]);
  });
});
