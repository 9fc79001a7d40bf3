/** The dashboard's checkboxes over real HTTP: who may tick, what a tick changes, and that it changes it once. */
import { afterEach, describe, expect, test } from "vitest";
import { DASHBOARD_MARKER } from "../../../src/core/dashboard/dashboard-state.js";
import { BOT, formBody, OWNER_REPO, REPO, startHarness, type Harness } from "./app-harness.js";

// A pool of size 0: items queue and show on the dashboard, nothing dispatches them.
const CONFIG = "pools:\n  default: {size: 0, dispatch: {kind: comment}}\n";

let h: Harness | undefined;
afterEach(async () => h?.close());

function dashboard(harness: Harness): { number: number; body: string } {
  const issue = [...harness.fake.repo(REPO).issues.values()].find((i) => (i.body ?? "").startsWith(DASHBOARD_MARKER));
  if (issue === undefined) throw new Error("no dashboard issue yet");
  return { number: issue.number, body: issue.body ?? "" };
}

/** Ticks one box on the dashboard as `who` would in the browser: an edit of the whole body. */
async function tick(harness: Harness, who: "maintainer" | "triager", box: string): Promise<void> {
  const d = dashboard(harness);
  const open = `[ ] <!-- ${box} -->`;
  expect(d.body).toContain(open);
  harness.clock.advance(1000);
  await harness.as(who).issues.update({ ...OWNER_REPO, issue_number: d.number, body: d.body.replace(open, `[x] <!-- ${box} -->`) });
  await harness.fake.webhooks.flush();
}

/** The bot's label writes on one issue, from the fake's request log. */
const labelWrites = (harness: Harness, issue: number, since = 0) =>
  harness.fake.accounting.log.filter((e) => e.seq > since && e.login === BOT && e.method !== "GET" && /\/labels/.test(e.path) && e.path.includes(`/issues/${issue}/`));

async function queuedItem(harness: Harness): Promise<number> {
  const n = harness.issue(formBody(), "Honor Retry-After");
  await harness.as("maintainer").issues.addLabels({ ...OWNER_REPO, issue_number: n, labels: ["bosun:ready"] });
  await harness.fake.webhooks.flush();
  expect(harness.labelsOf(n)).toEqual(["bosun:queued", "bosun:ready"]);
  return n;
}

describe("the dashboard's checkboxes", () => {
  test("the dashboard offers a hold box per queued item and says a size-0 pool dispatches nothing", async () => {
    h = await startHarness({ config: CONFIG, dashboardIntervalMs: 0 });
    const n = await queuedItem(h);
    const body = dashboard(h).body;
    expect(body).toContain(`1. [ ] <!-- bosun:hold=${n} --> #${n} Honor Retry-After (P2)`);
    expect(body).toMatch(/Size 0: nothing in this pool is dispatched/);
  });

  test("a tick by someone without write access (triage) changes no label, and the box is cleared", async () => {
    h = await startHarness({ config: CONFIG, dashboardIntervalMs: 0 });
    const n = await queuedItem(h);
    const mark = h.logPosition();
    await tick(h, "triager", `bosun:hold=${n}`);
    expect(h.labelsOf(n)).toEqual(["bosun:queued", "bosun:ready"]);
    expect(labelWrites(h, n, mark)).toEqual([]);
    expect(dashboard(h).body).toContain(`[ ] <!-- bosun:hold=${n} -->`);
    expect(dashboard(h).body).not.toContain(`[x] <!-- bosun:hold=${n} -->`);
    // The refused tick does not ride along with a writer's later edit of another box.
    const other = await queuedItem(h);
    await tick(h, "maintainer", `bosun:hold=${other}`);
    expect(h.labelsOf(other)).toContain("bosun:hold");
    expect(h.labelsOf(n)).not.toContain("bosun:hold");
  });

  test("a writer's tick is applied once, though the webhook arrives twice and is redelivered", async () => {
    h = await startHarness({ config: CONFIG, dashboardIntervalMs: 0 });
    const n = await queuedItem(h);
    h.fake.webhooks.configure({ duplicate: 1 });
    const mark = h.logPosition();
    await tick(h, "maintainer", `bosun:hold=${n}`);
    h.fake.webhooks.configure({ duplicate: 0 });
    const edited = h.fake.webhooks.deliveries.filter((d) => d.event === "issues" && d.action === "edited" && d.payload["sender"] !== undefined && (d.payload["issue"] as { number: number }).number === dashboard(h!).number);
    expect(edited.some((d) => d.duplicate)).toBe(true);
    for (const d of edited) await h.fake.webhooks.redeliver(d.id);
    await h.fake.webhooks.flush();
    expect(h.labelsOf(n)).toEqual(["bosun:hold", "bosun:queued", "bosun:ready"]);
    expect(labelWrites(h, n, mark)).toHaveLength(1);
    // The held item moves to the Held section, with a box to release it.
    expect(dashboard(h).body).toContain(`- [ ] <!-- bosun:release=${n} --> #${n} Honor Retry-After`);
  });

  test("release lifts the hold, and the item is queued again", async () => {
    h = await startHarness({ config: CONFIG, dashboardIntervalMs: 0 });
    const n = await queuedItem(h);
    await tick(h, "maintainer", `bosun:hold=${n}`);
    expect(h.labelsOf(n)).toEqual(["bosun:hold", "bosun:queued", "bosun:ready"]);
    await tick(h, "maintainer", `bosun:release=${n}`);
    expect(h.labelsOf(n)).toEqual(["bosun:queued", "bosun:ready"]);
    // The dashboard followed at once: the item is back in its pool's queue with a hold box.
    expect(dashboard(h).body).toContain(`1. [ ] <!-- bosun:hold=${n} --> #${n} Honor Retry-After (P2)`);
    expect(dashboard(h).body).not.toContain(`bosun:release=${n}`);
  });

  test("retry sends an item that needs a human back to the queue; a needs-human label put on by hand is not a need", async () => {
    // A pool of one that dispatches by comment: the item runs, and lands by hand.
    h = await startHarness({ config: "pools:\n  default: {size: 1, dispatch: {kind: comment}}\n", dashboardIntervalMs: 0 });
    const n = h.issue(formBody(), "Honor Retry-After");
    await h.as("maintainer").issues.addLabels({ ...OWNER_REPO, issue_number: n, labels: ["bosun:ready"] });
    await h.fake.webhooks.flush();
    expect(h.labelsOf(n)).toEqual(["bosun:claimed", "bosun:ready"]);
    // Labels mirror the claim record: a needs-human label added by hand is taken off, with no box to retry.
    await h.as("maintainer").issues.addLabels({ ...OWNER_REPO, issue_number: n, labels: ["bosun:needs-human"] });
    await h.fake.webhooks.flush();
    expect(h.labelsOf(n)).toEqual(["bosun:claimed", "bosun:ready"]);
    expect(dashboard(h).body).not.toContain(`bosun:retry=${n}`);

    await h.as("maintainer").issues.createComment({ ...OWNER_REPO, issue_number: n, body: "/bosun land refuse it touched the wrong module" });
    await h.fake.webhooks.flush();
    expect(h.labelsOf(n)).toEqual(["bosun:needs-human", "bosun:ready"]);
    expect(dashboard(h).body).toContain(`[ ] <!-- bosun:retry=${n} -->`);
    await tick(h, "maintainer", `bosun:retry=${n}`);
    // Back in the queue under its approval, and the free slot takes it at the next epoch.
    expect(h.labelsOf(n)).toEqual(["bosun:claimed", "bosun:ready"]);
    expect(h.fake.repo(REPO).refs.has(`refs/bosun/claims/${n}`)).toBe(true);
    expect(dashboard(h).body).not.toContain(`bosun:retry=${n}`);
    expect(h.comments(n).filter(([author, body]) => author === BOT && /epoch 2/.test(body))).not.toEqual([]);
  });
});
