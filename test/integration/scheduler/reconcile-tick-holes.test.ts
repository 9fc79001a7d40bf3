import { afterEach, expect, it } from "vitest";
import { parseBriefYaml } from "../../../src/core/brief/parse-brief.js";
import { renderSnapshotComment } from "../../../src/core/brief/snapshot.js";
import { reconcileTick } from "../../../src/app/scheduler/reconcile-tick.js";
import { REPO, schedulerFixture } from "./scheduler-fixture.js";

// Holes an adversarial review found: each test asserts what DESIGN.md ("Fencing on GitHub")
// requires, judged from what the fake GitHub recorded (its runs and labels), never from Bosun's
// own bookkeeping.

type Fixture = Awaited<ReturnType<typeof schedulerFixture>>;
let f: Fixture | undefined;
afterEach(async () => {
  await f?.fake.close();
  f = undefined;
});

const oneSlot = `pools:\n  default: {size: 1, dispatch: {kind: workflow, workflow: bosun-work.yml}}\nlease: 10m\n`;
const twoSlots = `pools:\n  default: {size: 2, dispatch: {kind: workflow, workflow: bosun-work.yml}}\nlease: 10m\n`;

it("H1: a workflow_dispatch that started its run and answered 502, the run not yet listed, keeps its claim: no second run while the first is in progress", async () => {
  f = await schedulerFixture(oneSlot);
  const n = await f.queue("twice");
  const a = f.replica("a");
  // GitHub: the dispatch applied and answered 502; the new run is not in listings for a while.
  f.fake.faults.add({ kind: "error", status: 502, applied: true, route: "POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches", times: 1 });
  f.fake.faults.add({ kind: "stale-read", requests: 3, route: "GET /repos/{owner}/{repo}/actions/workflows/{workflow_id}/runs", times: 3 });
  await reconcileTick(a).catch(() => undefined);
  expect(f.runsOf(n)).toHaveLength(1);
  f.clock.advance(60 * 60_000); // past any backoff, and past the lease
  for (let i = 0; i < 3; i++) await reconcileTick(a).catch(() => undefined);
  const live = f.runsOf(n).filter((r) => r.status !== "completed");
  expect(live).toHaveLength(1);
  expect(f.runsOf(n)).toHaveLength(1);
});

it("H1: a dispatch answered 4xx (definitely not started) still releases the claim for a retry", async () => {
  f = await schedulerFixture(oneSlot);
  const n = await f.queue("refused");
  const a = f.replica("a");
  f.fake.faults.add({ kind: "spurious-422", applied: false, message: "Unexpected inputs provided", route: "POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches", times: 1 });
  await reconcileTick(a).catch(() => undefined);
  expect(f.runsOf(n)).toHaveLength(0);
  expect(f.labelsOf(n)).not.toContain("bosun:claimed");
  f.clock.advance(60 * 60_000);
  await reconcileTick(a).catch(() => undefined);
  expect(f.runsOf(n)).toHaveLength(1);
});

it("H1: a label dispatch that applied and answered 502 keeps its claim: the pool's slot stays with it until its lease ends", async () => {
  f = await schedulerFixture(`pools:\n  default: {size: 1, dispatch: {kind: label, label: "agent:go"}}\nlease: 10m\n`);
  const n = await f.queue("first");
  const m = await f.queue("second");
  const a = f.replica("a");
  // The second label write of the tick is the dispatch (the first mirrors the claim): it applies and answers 502.
  let labelWrites = 0;
  f.fake.faults.add({ kind: "error", status: 502, applied: true, route: "POST /repos/{owner}/{repo}/issues/{issue_number}/labels", times: 1, when: () => ++labelWrites === 2 });
  await reconcileTick(a).catch(() => undefined);
  expect(f.fake.faults.fired).toHaveLength(1);
  expect(f.labelsOf(n)).toContain("agent:go");
  f.clock.advance(60_000);
  await reconcileTick(a).catch(() => undefined);
  await reconcileTick(a).catch(() => undefined);
  // The agent may be on #n: nobody else gets the one slot while its lease runs.
  expect(f.labelsOf(m)).not.toContain("agent:go");
  expect(f.labelsOf(n)).toContain("bosun:claimed");
});

it("H2: a re-approval read through one stale comments listing is not 'repaired' back to bosun:done: it runs again", async () => {
  f = await schedulerFixture(oneSlot);
  const n = await f.queue("again");
  const a = f.replica("a");
  await reconcileTick(a);
  f.fake.completeWorkflowRun(REPO, f.runsOf(n)[0]!.id, "success");
  await reconcileTick(a);
  expect(f.labelsOf(n)).toContain("bosun:done");
  let lagging = false;
  f.fake.faults.add({ kind: "stale-read", lagMs: 60_000, route: /comments/, when: () => lagging });
  f.clock.advance(120_000);
  // The maintainer re-approves: outcome label removed, queued again, a new snapshot by the bot.
  const issue = f.fake.repo(REPO).issues.get(n)!;
  const brief = parseBriefYaml(`goal: Work on again.\nconstraints: {paths: [src/**]}\nacceptance: {command: npm test}\nsize_cap: 100\nclaim_key: task:again\n`, { name: "again", defaultId: "again" });
  if (!brief.ok) throw new Error("bad brief");
  await f.octokit.issues.createComment({ owner: "acme", repo: "app", issue_number: n, body: renderSnapshotComment(brief.brief) });
  issue.labels = ["bosun:ready", "bosun:queued"];
  // Another replica (no cache) reads the comments from a lagging replica once.
  lagging = true;
  f.clock.advance(1000);
  await reconcileTick(f.replica("b")).catch(() => undefined);
  lagging = false;
  expect(f.labelsOf(n)).not.toContain("bosun:done");
  for (let i = 0; i < 3; i++) {
    f.clock.advance(60_000);
    await reconcileTick(f.replica(`c${i}`)).catch(() => undefined);
  }
  expect(f.runsOf(n)).toHaveLength(2);
});

it("H3: a claim ref deleted by a writer while its run is in progress: no second run, and the old run does not land a new claim", async () => {
  f = await schedulerFixture(twoSlots);
  const n = await f.queue("deleted");
  const a = f.replica("a");
  await reconcileTick(a);
  expect(f.runsOf(n)).toHaveLength(1);
  // A writer deletes the claim ref (or a cleanup script does).
  await f.octokit.git.deleteRef({ owner: "acme", repo: "app", ref: `bosun/claims/${n}` });
  f.clock.advance(30_000);
  const b = f.replica("b");
  await reconcileTick(b).catch(() => undefined);
  // While the first run is in progress, nothing else is dispatched for the item.
  expect(f.runsOf(n)).toHaveLength(1);
  f.fake.completeWorkflowRun(REPO, f.runsOf(n)[0]!.id, "success");
  await reconcileTick(b).catch(() => undefined);
  await reconcileTick(a).catch(() => undefined);
  expect(f.runsOf(n).filter((r) => r.epoch === 1)).toHaveLength(1);
  // Any later run is above every epoch the item's runs were titled with.
  const epochs = f.runsOf(n).map((r) => r.epoch);
  expect(new Set(epochs).size).toBe(epochs.length);
});

it("H5: one stale comments read right after intake is not cached: the queued item is dispatched later, and the tick that skipped it is not idle", async () => {
  f = await schedulerFixture(twoSlots);
  let lagging = false;
  f.fake.faults.add({ kind: "stale-read", lagMs: 60_000, route: /comments/, when: () => lagging });
  f.clock.advance(120_000);
  const n = await f.queue("fresh");
  f.clock.advance(1000);
  const b = f.replica("b");
  lagging = true;
  const first = await reconcileTick(b);
  lagging = false;
  expect(f.fake.faults.fired.length).toBeGreaterThan(0);
  expect(first.idle).toBe(false);
  for (let i = 0; i < 5; i++) {
    f.clock.advance(5 * 60_000);
    await reconcileTick(b);
  }
  expect(f.runsOf(n)).toHaveLength(1);
});

it("H5: an item waiting on an open #n blocker keeps the tick from saying idle", async () => {
  f = await schedulerFixture(twoSlots);
  const blocker = f.fake.addIssue(REPO, { title: "Blocker", labels: [] });
  await f.queue("waits", `blocked_by: ["#${blocker.number}"]\n`);
  const t = await reconcileTick(f.replica("a"));
  expect(t.dispatched).toHaveLength(0);
  expect(t.idle).toBe(false);
});

it("H4: an in-flight issue that drops out of the queued listing keeps its claim while its run is in progress, and its pool slot is not refilled", async () => {
  f = await schedulerFixture(oneSlot);
  const n = await f.queue("first");
  const m = await f.queue("second");
  const a = f.replica("a");
  await reconcileTick(a);
  expect(f.runsOf(n)).toHaveLength(1);
  const issue = f.fake.repo(REPO).issues.get(n)!;
  issue.labels = issue.labels.filter((l) => l !== "bosun:queued");
  f.clock.advance(10_000);
  await reconcileTick(a);
  await reconcileTick(a);
  const inProgress = [...f.runsOf(n), ...f.runsOf(m)].filter((r) => r.status !== "completed");
  expect(inProgress).toHaveLength(1);
  expect(f.runsOf(m)).toHaveLength(0);
  // When the run ends, leaving the queue is acted on: the slot goes to the next item.
  f.fake.completeWorkflowRun(REPO, f.runsOf(n)[0]!.id, "success");
  await reconcileTick(a);
  await reconcileTick(a);
  expect(f.runsOf(m)).toHaveLength(1);
});

it("H4: a transient 404 on an in-flight issue a lagging listing missed is not taken as gone", async () => {
  f = await schedulerFixture(`pools:\n  default: {size: 1, dispatch: {kind: label, label: "agent:go"}}\nlease: 10m\n`);
  const n = await f.queue("first");
  const m = await f.queue("second");
  const a = f.replica("a");
  await reconcileTick(a);
  expect(f.labelsOf(n)).toContain("agent:go");
  // The queued listing misses the issue (its label is off only while the listing is served), and
  // the issue's own read then answers 404 once, as a lagging replica does.
  const issue = f.fake.repo(REPO).issues.get(n)!;
  issue.labels = issue.labels.filter((l) => l !== "bosun:queued");
  const back = (): boolean => {
    if (!issue.labels.includes("bosun:queued")) issue.labels = [...issue.labels, "bosun:queued"];
    return true;
  };
  f.fake.faults.add({ kind: "error", status: 404, route: "GET /repos/{owner}/{repo}/issues/{issue_number}", times: 1, when: back });
  f.clock.advance(10_000);
  await reconcileTick(a).catch(() => undefined);
  expect(f.fake.faults.fired.map((x) => x.kind)).toEqual(["error"]);
  await reconcileTick(a).catch(() => undefined);
  // Still the one item with an agent on it: its claim was kept, its slot not given to the next.
  expect(f.labelsOf(m)).not.toContain("agent:go");
  expect(f.labelsOf(n)).toContain("bosun:claimed");
  expect(f.labelsOf(n)).not.toContain("bosun:needs-human");
});
