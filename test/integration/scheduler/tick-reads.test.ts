/** How the tick reads GitHub: runs past the first page, a listing that skipped an issue, a fresh process's few queries, the read-back after a batch of unknown outcome. */
import { afterEach, describe, expect, it } from "vitest";
import { reconcileTick } from "../../../src/app/scheduler/reconcile-tick.js";
import { octokitSchedulerGitHub } from "../../../src/app/scheduler/octokit-scheduler-github.js";
import { createTestOctokit } from "../../fake-github/test-octokit.js";
import { REPO, schedulerFixture } from "./scheduler-fixture.js";
import { octokitClaimRefs, type ClaimRefsApi } from "../../../src/adapters/github/claim-refs-api.js";
import { GitHubClaimStore } from "../../../src/adapters/github/github-claim-store.js";
import { GuardedClaimStore } from "../../../src/core/claims/guarded-claim-store.js";

type Fixture = Awaited<ReturnType<typeof schedulerFixture>>;
let f: Fixture | undefined;
afterEach(async () => {
  await f?.fake.close();
  f = undefined;
});

describe("the tick's reads on the fake GitHub", () => {
  it("finds a long run that newer runs pushed off the first page, by its id or by its run name", async () => {
    f = await schedulerFixture(`pools:\n  default: {size: 1, dispatch: {kind: workflow, workflow: bosun-work.yml}}\nlease: 10m\n`);
    const n = await f.queue("long-one");
    const a = f.replica("a");
    await reconcileTick(a);
    // 150 later dispatches of the same workflow (other work): the item's run is now on page 2.
    for (let i = 0; i < 150; i++) await f.octokit.actions.createWorkflowDispatch({ owner: "acme", repo: "app", workflow_id: "bosun-work.yml", ref: "main", inputs: { item: "other", epoch: String(i), brief_hash: "x" } });
    f.fake.completeWorkflowRun(REPO, f.runsOf(n)[0]!.id, "success");
    // Another replica knows only the run name; it lands the item all the same.
    const t = await reconcileTick(f.replica("b"));
    expect(t.landed).toEqual([{ issue: n, disposition: "ok", summary: expect.stringContaining("succeeded") }]);
  });

  it("a fresh process (an Action run) reads claims and snapshots in a few queries, not one request each", async () => {
    f = await schedulerFixture(`pools:\n  default: {size: 1, dispatch: {kind: workflow, workflow: bosun-work.yml}}\nlease: 10m\n`);
    const items = await Promise.all(Array.from({ length: 8 }, (_, i) => f!.queue(`item-${i}`)));
    // Four ticks by other processes, one landing and one grant each: the claim refs now point at
    // four batch commits the fresh process never read, and six queued snapshots are new to it.
    for (const holder of ["a", "b", "a2", "b2"]) {
      await reconcileTick(f.replica(holder));
      for (const n of items) for (const r of f.runsOf(n)) if (r.status !== "completed") f.fake.completeWorkflowRun(REPO, r.id, "success");
    }
    f.fake.accounting.reset();
    const cold = await reconcileTick(f.replica("c"));
    expect(cold.landed).toHaveLength(1);
    expect(cold.dispatched).toHaveLength(1);
    const count = (route: string) => f!.fake.accounting.log.filter((e) => e.route === route).length;
    expect(count("GET /repos/{owner}/{repo}/git/commits/{commit_sha}")).toBe(0);
    expect(count("GET /repos/{owner}/{repo}/issues/{issue_number}/comments")).toBe(0);
    expect(f.fake.accounting.log.filter((e) => e.route === "POST /graphql" && e.kind === "read")).toHaveLength(2);
  });

  it("an in-flight item the queue listing missed is read again, not refused as gone", async () => {
    f = await schedulerFixture(`pools:\n  default: {size: 1, dispatch: {kind: workflow, workflow: bosun-work.yml}}\nlease: 10m\n`);
    const n = await f.queue("busy");
    const a = f.replica("a");
    await reconcileTick(a);
    // A listing that skipped the issue (as offset pages do when issues leave the queue meanwhile).
    const missing = { ...a, github: { ...a.github, listQueued: async (label: string) => (await a.github.listQueued(label)).filter((i) => i.number !== n) } };
    const t = await reconcileTick(missing);
    expect(t.landed).toEqual([]);
    expect(t.inFlight.map((i) => i.issue)).toEqual([n]);
    expect(f.labelsOf(n)).toContain("bosun:claimed");
    // Closed for real while its run is in progress: the claim stays with the live run.
    await f.octokit.issues.update({ owner: "acme", repo: "app", issue_number: n, state: "closed", state_reason: "completed" });
    expect((await reconcileTick(a)).landed).toEqual([]);
    // Its run ends: it lands, and closed as completed is done.
    f.fake.completeWorkflowRun(REPO, f.runsOf(n)[0]!.id, "failure");
    expect((await reconcileTick(a)).landed).toMatchObject([{ issue: n, disposition: "ok" }]);
  });

  it("lists every queued issue even when issues leave the queue between its pages", async () => {
    f = await schedulerFixture();
    const fx = f;
    const numbers = Array.from({ length: 130 }, (_, i) => fx.fake.addIssue(REPO, { title: `q${i}`, labels: ["bosun:queued"] }).number);
    const client = createTestOctokit(fx.fake.url, "t-bot");
    // Right after the first page is read, the first three issues leave the queue: page 2 now starts
    // three issues later, and a single pass would never see issues 101 to 103.
    let shifted = false;
    client.hook.after("request", (_response, options) => {
      if (shifted || !String(options.url).includes("/issues") || options["page"] !== 1) return;
      shifted = true;
      for (const n of numbers.slice(0, 3)) fx.fake.repo(REPO).issues.get(n)!.labels = [];
    });
    const github = octokitSchedulerGitHub(client, { owner: "acme", repo: "app", botLogin: "bosun[bot]", defaultBranch: "main" });
    const listed = new Set((await github.listQueued("bosun:queued")).map((i) => i.number));
    for (const n of numbers.slice(3)) expect(listed.has(n)).toBe(true);
  });

  it("a batch that landed behind an error is read back through a listing that fails once, and its grants are dispatched", async () => {
    f = await schedulerFixture();
    const n = await f.queue("behind-an-error");
    const a = f.replica("a");
    // The batch lands but its answer is lost; the first listing after it fails (a 503 would).
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
    const store = new GitHubClaimStore({ refs, prefix: f.config.claims.ref_prefix });
    const t = await reconcileTick({ ...a, store, claims: new GuardedClaimStore(store, store) });
    expect(failedOnce).toBe(true);
    expect(t.dispatched).toEqual([n]);
    expect(f.runsOf(n)).toMatchObject([{ epoch: 1 }]);
  });
});
