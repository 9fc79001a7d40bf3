/** The intake over real HTTP: signed webhooks from the fake GitHub to the app, the app's Octokit back to the fake. */
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { briefHash } from "../../../src/core/brief/parse-brief.js";
import { parseIssueBody } from "../../../src/core/brief/parse-issue-body.js";
import { parseSnapshotComment, SNAPSHOT_MARKER } from "../../../src/core/brief/snapshot.js";
import { parseClaimCommit, recordFor, type ClaimRecord } from "../../../src/core/claims/claim-record.js";
import { LABEL_STYLE } from "../../../src/core/config/labels.js";
import { DASHBOARD_MARKER } from "../../../src/core/dashboard/dashboard-state.js";
import { INVALID_MARKER } from "../../../src/core/intake/intake-comments.js";
import { STATUS_MARKER } from "../../../src/core/scheduler/status-comment.js";
import { createResponseValidator } from "../../fake-github/openapi/create-response-validator.js";
import { BOT, formBody, OWNER_REPO, REPO, startHarness, type Harness } from "./app-harness.js";

const snapshotsOf = (h: Harness, n: number) => h.comments(n).filter(([, body]) => body.startsWith(SNAPSHOT_MARKER));
const statusOf = (h: Harness, n: number) => h.comments(n).filter(([author, body]) => author === BOT && body.startsWith(STATUS_MARKER));
/** The bot's writes that touch issue `n` (its comments, labels, the issue itself), as `METHOD route status`, after a log position. */
const writesOn = (h: Harness, n: number, since = 0) => h.fake.accounting.log.filter((e) => e.seq > since && e.login === BOT && e.method !== "GET" && new RegExp(`/issues/${n}(/|$)`).test(e.path)).map((e) => `${e.route ?? e.path} ${e.status}`);
const dashboardOf = (h: Harness) => [...h.fake.repo(REPO).issues.values()].find((i) => (i.body ?? "").startsWith(DASHBOARD_MARKER))?.body ?? "";
/** The claim record Bosun wrote for issue `n`, read from its ref's commit. */
function recordOf(h: Harness, n: number): ClaimRecord | undefined {
  const ref = `refs/bosun/claims/${n}`;
  const sha = h.fake.repo(REPO).refs.get(ref);
  const commit = sha === undefined ? undefined : h.fake.repo(REPO).commits.get(sha);
  return commit === undefined ? undefined : recordFor(parseClaimCommit(commit.message), ref);
}

async function approve(h: Harness, n: number, who: "maintainer" | "triager" | "admin" = "maintainer"): Promise<void> {
  await h.as(who).issues.addLabels({ ...OWNER_REPO, issue_number: n, labels: ["bosun:ready"] });
  await h.fake.webhooks.flush();
}

async function reapprove(h: Harness, n: number): Promise<void> {
  await h.as("maintainer").issues.removeLabel({ ...OWNER_REPO, issue_number: n, name: "bosun:ready" });
  await approve(h, n);
}

describe("intake: a writer labels an issue bosun:ready", () => {
  let h: Harness;
  const validator = createResponseValidator();
  beforeEach(async () => {
    h = await startHarness({ validator });
  });
  afterEach(async () => h.close());

  test("a valid brief gets one snapshot comment by the bot (brief + hash) and bosun:queued; labels are bootstrapped", async () => {
    const body = formBody();
    const n = h.issue(body);
    await approve(h, n);
    const snapshots = snapshotsOf(h, n);
    expect(snapshots.map(([author]) => author)).toEqual([BOT]);
    const parsed = parseSnapshotComment(snapshots[0]?.[1] ?? "", "snapshot");
    const expected = parseIssueBody(body, { name: `issue #${n}`, defaultId: String(n) });
    if (!parsed.ok || !expected.ok) throw new Error("snapshot or brief did not parse");
    expect(parsed.snapshot.hash).toBe(briefHash(expected.brief));
    expect(parsed.snapshot.brief).toMatchObject({ id: String(n), size_cap: 300, priority: 2, acceptance: { command: "npm test -- http", timeout: 600 } });
    expect(h.labelsOf(n)).toEqual(["bosun:queued", "bosun:ready"]);
    // Labels are bootstrapped after the first tick, off the approval's path: every write of the
    // approval (snapshot, status, labels) comes before the first label Bosun creates. GitHub created
    // the ones the approval used (grey, on first use); the others get Bosun's style.
    const log = h.fake.accounting.log.filter((e) => e.login === BOT);
    const firstCreated = log.findIndex((e) => e.route === "POST /repos/{owner}/{repo}/labels");
    const lastOnIssue = log.findLastIndex((e) => e.method !== "GET" && new RegExp(`/issues/${n}(/|$)`).test(e.path));
    expect(lastOnIssue).toBeGreaterThan(0);
    expect(firstCreated).toBeGreaterThan(lastOnIssue);
    expect(h.fake.repo(REPO).labels.get("bosun:hold")).toMatchObject({ color: LABEL_STYLE.hold.color, description: LABEL_STYLE.hold.description });
    expect(h.fake.repo(REPO).labels.get("bosun:needs-human")).toMatchObject({ color: LABEL_STYLE.needsHuman.color });
    expect([...h.fake.repo(REPO).labels.keys()]).toEqual(expect.arrayContaining(["bosun:hold", "bosun:needs-human", "p0", "p4", "pool/default"]));
    expect(h.fake.webhooks.deliveries.every((d) => d.status === 200)).toBe(true);
    // Every response the app's Octokit received matched GitHub's OpenAPI description.
    expect(validator.violations).toEqual([]);
    expect(validator.checked).toBeGreaterThan(5);
  });

  test("a label by someone without the approval role is ignored: nothing written on the issue, nothing recorded; the dashboard says why", async () => {
    const n = h.issue(formBody());
    const before = h.logPosition();
    await approve(h, n, "triager");
    expect(h.comments(n)).toEqual([]);
    expect(h.labelsOf(n)).toEqual(["bosun:ready"]);
    expect(writesOn(h, n, before)).toEqual([]);
    expect(recordOf(h, n)).toBeUndefined();
    // It asked GitHub, rather than trusting the payload's author_association.
    expect(h.botRequests(before)).toContain("GET /repos/{owner}/{repo}/collaborators/{username}/permission 200");
    expect(dashboardOf(h)).toContain("tia has the triage role; approving needs maintain or more");
  });

  test("the repository owner (admin) can approve", async () => {
    const n = h.issue(formBody());
    await approve(h, n, "admin");
    expect(h.labelsOf(n)).toContain("bosun:queued");
  });
});

describe("intake: invalid briefs", () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness();
  });
  afterEach(async () => h.close());

  const cases: Array<{ name: string; body: string; fields: string[] }> = [
    { name: "no brief at all", body: "Please make the client retry.", fields: ["(body)"] },
    { name: "required sections left empty", body: formBody({ "Allowed paths": "_No response_", "Acceptance command": "_No response_", "Size cap": "_No response_" }), fields: ["Allowed paths (constraints.paths)", "Acceptance command (acceptance.command)", "Size cap (size_cap)"] },
    { name: "a size cap that is not a number", body: formBody({ "Size cap": "lots" }), fields: ["Size cap (size_cap)"] },
    { name: "a priority outside P0..P4", body: formBody({ Priority: "P9" }), fields: ["Priority (priority)"] },
    { name: "a malformed duration and due date", body: formBody({ "Acceptance timeout": "soon", Due: "next week" }), fields: ["Acceptance timeout (acceptance.timeout)", "Due (due)"] },
    { name: "an unknown field in a yaml block", body: "```yaml\ngoal: x\nconstraints: {paths: [src/**]}\nacceptance: {command: npm test}\nsize_cap: 10\nsize_kap: 3\n```", fields: ["size_kap"] },
    { name: "yaml that does not parse", body: "```yaml\ngoal: [unclosed\n```", fields: ["(yaml)"] },
    { name: "a yaml bomb", body: "```yaml\n" + "[".repeat(5000) + "\n```", fields: ["(yaml)"] },
    { name: "a body over 64 KB", body: formBody({ Goal: "x".repeat(70_000) }), fields: ["(body)"] },
  ];

  test.each(cases)("$name: one comment naming every problem by field, and bosun:invalid-brief", async ({ body, fields }) => {
    const n = h.issue(body);
    await approve(h, n);
    const comments = h.comments(n);
    expect(comments).toHaveLength(1);
    const [author, text] = comments[0] ?? ["", ""];
    expect(author).toBe(BOT);
    expect(text.startsWith(INVALID_MARKER)).toBe(true);
    for (const field of fields) expect(text).toContain(`${field}:`);
    expect(h.labelsOf(n)).toEqual(["bosun:invalid-brief", "bosun:ready"]);
  });

  test("fixing the issue and re-labelling retries: queued, bosun:invalid-brief removed", async () => {
    const n = h.issue(formBody({ "Size cap": "lots" }));
    await approve(h, n);
    expect(h.labelsOf(n)).toContain("bosun:invalid-brief");
    await h.as("triager").issues.update({ ...OWNER_REPO, issue_number: n, body: formBody() });
    await h.fake.webhooks.flush();
    // An edit alone does not retry: approval is a writer's act.
    expect(h.labelsOf(n)).toEqual(["bosun:invalid-brief", "bosun:ready"]);
    // The maintainer reads the fix before approving it (an edit in the approval's own second counts as after it).
    h.clock.advance(30_000);
    await reapprove(h, n);
    expect(h.labelsOf(n)).toEqual(["bosun:queued", "bosun:ready"]);
    expect(snapshotsOf(h, n)).toHaveLength(1);
  });

  test("problems are shown as code: markdown and mentions in the body are not rendered", async () => {
    const n = h.issue(formBody({ Priority: "@mona ![x](http://evil/x.png) ``` <b>", "Size cap": "lots" }));
    await approve(h, n);
    const text = h.comments(n)[0]?.[1] ?? "";
    const fence = /^(`{4,})text$/m.exec(text)?.[1];
    expect(fence).toBeDefined();
    expect(text.indexOf("@mona")).toBeGreaterThan(text.indexOf(`${fence}text`));
  });
});

describe("intake: edits, redelivery, reordering, leaving the queue", () => {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness();
  });
  afterEach(async () => h.close());

  test("an edit after the snapshot: the frozen brief never changes, the edited text never runs, the issue and the dashboard say why; a re-approval freezes and runs the new text", async () => {
    const pool = (size: number) => `pools:\n  default: {size: ${size}, dispatch: {kind: workflow, workflow: bosun-work.yml}}\n`;
    const g = await startHarness({ config: pool(0), dashboardIntervalMs: 0 });
    try {
      g.fake.addWorkflow(REPO, { path: ".github/workflows/bosun-work.yml", name: "bosun work", runName: "bosun #${{ inputs.item }} epoch ${{ inputs.epoch }}" });
      const n = g.issue(formBody());
      await approve(g, n);
      const [frozen] = snapshotsOf(g, n);
      const approvedHash = recordOf(g, n)?.briefHash;
      expect(approvedHash).toMatch(/^sha256:/);
      g.clock.advance(60_000);
      await g.as("triager").issues.update({ ...OWNER_REPO, issue_number: n, body: formBody({ "Allowed paths": "**" }) });
      await g.fake.webhooks.flush();
      // Held: the hold label goes on, the record keeps the approved brief, the snapshot is never edited.
      expect(g.labelsOf(n)).toEqual(["bosun:hold", "bosun:queued", "bosun:ready"]);
      expect(snapshotsOf(g, n)).toEqual([frozen]);
      expect(recordOf(g, n)).toMatchObject({ state: "approved", briefHash: approvedHash });
      const status = statusOf(g, n);
      expect(status).toHaveLength(1);
      expect(status[0]?.[1]).toContain("changed after it was approved");
      expect(dashboardOf(g)).toMatch(new RegExp(`#${n}\\b.*changed after it was approved`));
      // A slot opens: nothing runs, because the issue no longer holds the approved brief.
      g.fake.setFile(REPO, "main", ".github/bosun.yml", pool(1));
      g.clock.advance(60_000);
      const beforeTitle = g.logPosition();
      // A title edit is not a brief edit (and it makes the app tick).
      await g.as("triager").issues.update({ ...OWNER_REPO, issue_number: n, title: "Renamed" });
      await g.fake.webhooks.flush();
      expect(writesOn(g, n, beforeTitle)).toEqual([]);
      expect([...g.fake.repo(REPO).workflowRuns.values()]).toEqual([]);
      // A second edit: still one snapshot, one status comment, and nothing runs.
      await g.as("triager").issues.update({ ...OWNER_REPO, issue_number: n, body: formBody({ "Size cap": "9000" }) });
      await g.fake.webhooks.flush();
      expect(snapshotsOf(g, n)).toEqual([frozen]);
      expect(statusOf(g, n)).toHaveLength(1);
      expect([...g.fake.repo(REPO).workflowRuns.values()]).toEqual([]);
      // Re-approval freezes the text the issue holds now, lifts the hold, and runs that brief.
      g.clock.advance(60_000);
      await reapprove(g, n);
      const snapshots = snapshotsOf(g, n);
      expect(snapshots).toHaveLength(2);
      expect(snapshots[0]).toEqual(frozen);
      const latest = parseSnapshotComment(snapshots[1]?.[1] ?? "", "latest");
      if (!latest.ok) throw new Error("the new snapshot does not parse");
      expect(latest.snapshot.brief.size_cap).toBe(9000);
      expect(g.labelsOf(n)).not.toContain("bosun:hold");
      expect([...g.fake.repo(REPO).workflowRuns.values()].map((r) => r.inputs)).toEqual([expect.objectContaining({ item: String(n), brief_hash: latest.snapshot.hash })]);
      // The first snapshot was never edited, whatever happened after it.
      const bot = [...g.fake.repo(REPO).comments.values()].filter((c) => c.issueNumber === n && c.body.startsWith(SNAPSHOT_MARKER));
      expect(bot.every((c) => c.updatedAt === c.createdAt)).toBe(true);
    } finally {
      await g.close();
    }
  });

  test("a snapshot-looking comment by a human is not a snapshot", async () => {
    const n = h.issue(formBody({ "Size cap": "10" }));
    const forged = formBody({ "Size cap": "99999" });
    const brief = parseIssueBody(forged, { name: "x", defaultId: String(n) });
    if (!brief.ok) throw new Error("forged brief invalid");
    await h.as("triager").issues.createComment({ ...OWNER_REPO, issue_number: n, body: `${SNAPSHOT_MARKER}\n\n\`\`\`json\n${JSON.stringify({ brief: brief.brief, hash: briefHash(brief.brief) })}\n\`\`\`\n` });
    await approve(h, n);
    const snapshots = snapshotsOf(h, n).filter(([a]) => a === BOT);
    expect(snapshots).toHaveLength(1);
    const parsed = parseSnapshotComment(snapshots[0]?.[1] ?? "", "bot");
    expect(parsed.ok && parsed.snapshot.brief.size_cap).toBe(10);
  });

  test("redelivering the approval three times changes nothing and writes nothing", async () => {
    const valid = h.issue(formBody());
    const invalid = h.issue(formBody({ "Size cap": "lots" }));
    await approve(h, valid);
    await approve(h, invalid);
    const stateBefore = [h.comments(valid), h.labelsOf(valid), h.comments(invalid), h.labelsOf(invalid)];
    const labeled = h.fake.webhooks.deliveries.filter((d) => d.event === "issues" && d.action === "labeled" && (d.payload.label as { name: string }).name === "bosun:ready");
    expect(labeled).toHaveLength(2);
    const before = h.logPosition();
    for (let i = 0; i < 3; i++) for (const d of labeled) expect((await h.fake.webhooks.redeliver(d.id)).status).toBe(200);
    expect([h.comments(valid), h.labelsOf(valid), h.comments(invalid), h.labelsOf(invalid)]).toEqual(stateBefore);
    expect(h.botWrites(before)).toEqual([]);
  });

  test("duplicated deliveries (same delivery id, sent twice) leave one snapshot", async () => {
    h.fake.webhooks.configure({ duplicate: 1 });
    const n = h.issue(formBody());
    await approve(h, n);
    expect(h.fake.webhooks.deliveries.some((d) => d.duplicate)).toBe(true);
    expect(snapshotsOf(h, n)).toHaveLength(1);
    expect(h.labelsOf(n)).toEqual(["bosun:queued", "bosun:ready"]);
  });

  test("out of order: an approval delivered after a later edit freezes nothing nobody approved; the issue and the dashboard say to approve again", async () => {
    const n = h.issue(formBody());
    h.fake.webhooks.configure({ drop: 1 });
    await approve(h, n);
    const late = h.fake.webhooks.deliveries.find((d) => d.dropped && d.action === "labeled");
    expect(late).toBeDefined();
    h.fake.webhooks.configure({ drop: 0 });
    h.clock.advance(30_000);
    await h.as("triager").issues.update({ ...OWNER_REPO, issue_number: n, body: formBody({ "Allowed paths": "**" }) });
    await h.fake.webhooks.flush();
    // The edit's tick finds the approval — older than the text the issue holds now: nothing is frozen.
    const held = () => {
      expect(snapshotsOf(h, n)).toEqual([]);
      expect(h.labelsOf(n)).toEqual(["bosun:hold", "bosun:ready"]);
      const record = recordOf(h, n);
      expect(record?.state).toBe("approved");
      expect(record?.briefHash).toBeUndefined();
      const status = statusOf(h, n);
      expect(status).toHaveLength(1);
      expect(status[0]?.[1]).toContain("edited after it was approved");
      expect(dashboardOf(h)).toMatch(new RegExp(`#${n}\\b.*edited after it was approved`));
    };
    held();
    // The late delivery of the approval changes nothing and writes nothing on the issue.
    const before = h.logPosition();
    expect((await h.fake.webhooks.redeliver(late?.id ?? "")).status).toBe(200);
    held();
    expect(writesOn(h, n, before)).toEqual([]);
    // Re-approval (the only thing a person does) freezes the text they approved.
    h.clock.advance(30_000);
    await reapprove(h, n);
    expect(h.labelsOf(n)).toEqual(["bosun:queued", "bosun:ready"]);
    const parsed = parseSnapshotComment(snapshotsOf(h, n)[0]?.[1] ?? "", "s");
    expect(parsed.ok && parsed.snapshot.brief.constraints.paths).toEqual(["**"]);
    expect(statusOf(h, n)).toHaveLength(1);
  });

  test("an edit in the approval's own second counts as after it: GitHub's times are whole seconds", async () => {
    const n = h.issue(formBody());
    h.fake.webhooks.configure({ drop: 1 });
    await approve(h, n);
    h.fake.webhooks.configure({ drop: 0 });
    h.clock.advance(400);
    await h.as("triager").issues.update({ ...OWNER_REPO, issue_number: n, body: formBody({ "Size cap": "9000" }) });
    await h.fake.webhooks.flush();
    expect(snapshotsOf(h, n)).toEqual([]);
    expect(recordOf(h, n)?.briefHash).toBeUndefined();
  });

  test("out of order: the approval arriving after its withdrawal queues nothing", async () => {
    const n = h.issue(formBody());
    h.fake.webhooks.configure({ drop: 1 });
    await approve(h, n);
    const late = h.fake.webhooks.deliveries.find((d) => d.dropped && d.action === "labeled");
    h.fake.webhooks.configure({ drop: 0 });
    await h.as("maintainer").issues.removeLabel({ ...OWNER_REPO, issue_number: n, name: "bosun:ready" });
    await h.fake.webhooks.flush();
    const before = h.logPosition();
    await h.fake.webhooks.redeliver(late?.id ?? "");
    expect(h.comments(n)).toEqual([]);
    expect(h.labelsOf(n)).toEqual([]);
    expect(h.botWrites(before)).toEqual([]);
  });

  test("shuffled and duplicated batches end in the same state as in-order delivery", async () => {
    const run = async (reorder: boolean, seed: number) => {
      const g = await startHarness({ seed });
      g.fake.webhooks.configure({ hold: true, reorder, duplicate: reorder ? 0.5 : 0 });
      const ns = [g.issue(formBody()), g.issue(formBody({ "Size cap": "x" })), g.issue(formBody()), g.issue(formBody())];
      for (const n of ns) await g.as("maintainer").issues.addLabels({ ...OWNER_REPO, issue_number: n, labels: ["bosun:ready"] });
      await g.as("triager").issues.update({ ...OWNER_REPO, issue_number: ns[2] ?? 0, body: formBody({ Goal: "Something else" }) });
      await g.as("maintainer").issues.removeLabel({ ...OWNER_REPO, issue_number: ns[3] ?? 0, name: "bosun:ready" });
      await g.fake.webhooks.flush();
      await g.fake.webhooks.flush();
      const out = ns.map((n) => ({ labels: g.labelsOf(n), comments: g.comments(n).map(([a, b]) => `${a} ${b.split("\n")[0] ?? ""}`) }));
      await g.close();
      return out;
    };
    const inOrder = await run(false, 1);
    expect(inOrder.map((o) => o.labels)).toEqual([["bosun:queued", "bosun:ready"], ["bosun:invalid-brief", "bosun:ready"], ["bosun:hold", "bosun:ready"], []]);
    for (const seed of [2, 3, 4]) expect(await run(true, seed)).toEqual(inOrder);
  });

  test("an approval withdrawn within its first minute, while the issue listing still shows the label, is never dispatched", async () => {
    const pool = (size: number) => `pools:\n  default: {size: ${size}, dispatch: {kind: workflow, workflow: bosun-work.yml}}\n`;
    const g = await startHarness({ config: pool(0) });
    try {
      g.fake.addWorkflow(REPO, { path: ".github/workflows/bosun-work.yml", name: "bosun work", runName: "bosun #${{ inputs.item }} epoch ${{ inputs.epoch }}" });
      const n = g.issue(formBody());
      await approve(g, n);
      expect(recordOf(g, n)?.state).toBe("approved");
      // A slot opens, and the maintainer takes the approval back seconds after giving it; GitHub's
      // listing of labelled issues lags the removal (a read served from before it).
      g.fake.setFile(REPO, "main", ".github/bosun.yml", pool(1));
      g.clock.advance(10_000);
      g.fake.faults.add({ kind: "stale-read", requests: 5, route: "GET /repos/{owner}/{repo}/issues" });
      await g.as("maintainer").issues.removeLabel({ ...OWNER_REPO, issue_number: n, name: "bosun:ready" });
      await g.fake.webhooks.flush();
      // The unlabeled webhook has the tick read the issue's events: the withdrawal shows there.
      expect([...g.fake.repo(REPO).workflowRuns.values()]).toEqual([]);
      expect(recordOf(g, n)?.state).not.toBe("held");
    } finally {
      await g.close();
    }
  });

  test("closing the issue or withdrawing bosun:ready takes the item out of the queue", async () => {
    const closed = h.issue(formBody());
    const withdrawn = h.issue(formBody());
    await approve(h, closed);
    await approve(h, withdrawn);
    await h.as("maintainer").issues.update({ ...OWNER_REPO, issue_number: closed, state: "closed" });
    await h.as("maintainer").issues.removeLabel({ ...OWNER_REPO, issue_number: withdrawn, name: "bosun:ready" });
    await h.fake.webhooks.flush();
    expect(h.labelsOf(closed)).toEqual(["bosun:ready"]);
    expect(h.labelsOf(withdrawn)).toEqual([]);
  });
});
