/**
 * The in-brief life, stage by stage, shared by the kind and the unkind runs: file the brief through
 * the issue form, approve it, let the App and the workflows work, read the verdicts, approve
 * independently, merge (the required checks enforced), deploy, verify; then judge the end from the
 * fake. Later stages still run after a soft failure, so one run reports every broken stage.
 */
import { expect } from "vitest";
import { SNAPSHOT_MARKER } from "../../../src/core/brief/snapshot.js";
import { json, startVersionServer } from "../verify/version-server.js";
import { judge } from "./judge-life.js";
import { APP_ID, BOT, briefForm, REPO, type Life } from "./life-world.js";
import { runItems } from "../../support/run-items.js";

/** Runs the whole in-brief life; `settle` lets everything pending happen (default `life.settle`). */
export async function walkInBriefLife(life: Life, settle: () => Promise<void> = life.settle): Promise<{ item: number }> {
  let item = 0;
  try {
    item = await stages(life, settle, (n) => {
      item = n;
    });
    return { item };
  } finally {
    // Whatever stage the life reached, these held all along (judged from what the fake heard).
    const j = judge(life.fake);
    if (item > 0) {
      const snapshots = j.snapshots(item);
      expect.soft(snapshots[0]?.updatedAt, "the frozen snapshot was never edited").toBe(snapshots[0]?.createdAt);
      // One snapshot ever posted for the one approval: none posted and deleted again.
      expect.soft(life.posted.filter((c) => c.issue === item && c.user === BOT && c.body.trimStart().startsWith(SNAPSHOT_MARKER)), "snapshot comments ever posted").toHaveLength(1);
    }
    // The dashboard never said idle while an item was approved and not finished (merged or handed to a human).
    const falseIdle = life.dashboards.filter((d) => d.idle && d.busy.length > 0);
    expect.soft(falseIdle.length, `dashboard versions saying Idle while an item was in its life (of ${life.dashboards.length}): ${[...new Set(falseIdle.map((d) => d.seen))].join(" | ")}`).toBe(0);
  }
}

async function stages(life: Life, settle: () => Promise<void>, started: (item: number) => void): Promise<number> {
  const { fake, people, meter } = life;
  const j = judge(fake);
  meter.stage("file and approve");
  const n = await people.triager.openIssue("[brief] Honor Retry-After", briefForm());
  started(n);
  await people.maintainer.label(n, "bosun:ready");
  await fake.webhooks.flush();

  meter.stage("claim, dispatch, work, PR, acceptance, gate");
  await settle();
  const workRuns = j.runsOf(".github/workflows/bosun-work.yml");
  expect(workRuns.flatMap((r) => runItems(r).map((i) => [Number(i.item), r.conclusion])), `the played runs:\n${life.explain()}`).toEqual([[n, "success"]]);
  const pull = j.pull(n);
  expect(pull, "the land job opened the item's pull request").toBeDefined();
  if (pull === undefined) return n;
  expect(j.issue(pull.number)?.user).toBe(BOT);
  expect(j.runsOf(".github/workflows/bosun-acceptance.yml").map((r) => [r.headSha, r.conclusion]), `the played runs:\n${life.explain()}`).toEqual([[pull.headSha, "success"]]);

  meter.stage("verdicts");
  const gate = j.appCheck(pull.headSha, "bosun/gate");
  expect(gate?.status).toBe("completed");
  expect.soft(gate?.conclusion, `bosun/gate said: ${gate?.output.title ?? ""}\n${gate?.output.summary ?? ""}`).toBe("success");
  // A run that succeeded is "PR open, gate pending", not done: bosun:done means merged.
  expect.soft(j.labels(n), "bosun:done before the merge").not.toContain("bosun:done");
  // No independent approval yet: the App's separation status holds the merge (pending or failure, never success).
  const waiting = j.statuses(pull.headSha, "bosun/separation").filter((s) => s.appId === APP_ID).at(-1);
  expect(["pending", "failure"], `bosun/separation said: ${waiting?.description ?? "nothing"}`).toContain(waiting?.state);
  const early = await people.maintainer.merge(pull.number);
  expect(early.ok, "a merge before the verdicts are in is refused").toBe(false);

  meter.stage("independent approval");
  await people.reviewer.approve(pull.number);
  await settle();
  expect(j.statuses(pull.headSha, "bosun/separation").filter((s) => s.appId === APP_ID).at(-1)?.state).toBe("success");

  meter.stage("merge");
  const merged = await people.maintainer.merge(pull.number);
  expect(merged, `the maintainer's merge, once bosun/gate and bosun/separation are green: ${JSON.stringify(merged)}`).toMatchObject({ ok: true });
  if (!merged.ok) return n;
  await settle();

  meter.stage("deploy and verify");
  const version = await startVersionServer((_n, _req, res) => json(res, { build: { sha: merged.sha } }));
  try {
    await people.deployer.deploy(merged.sha, "production", version.url);
    await settle();
  } finally {
    await version.close();
  }
  // The verify run succeeds; the status it posts as the App starts the workflow once more, and that
  // run answers its own status with nothing: one verdict on the merge commit, never a loop.
  const verifyRuns = j.runsOf(".github/workflows/bosun-verify.yml").filter((r) => r.conclusion !== "skipped");
  expect(verifyRuns.map((r) => r.conclusion).filter((c) => c !== "success"), `the played runs:\n${life.explain()}`).toEqual([]);
  expect(verifyRuns.length, `the played runs:\n${life.explain()}`).toBeLessThanOrEqual(2);
  expect(fake.repo(REPO).statuses.filter((s) => s.sha === merged.sha && s.context === "bosun/deploy-verified").map((s) => s.state)).toEqual(["success"]);

  // The end, as the fake holds it.
  expect(j.issue(n)).toMatchObject({ state: "closed", stateReason: "completed" });
  expect(j.labels(n)).toContain("bosun:done");
  expect(j.snapshots(n)).toHaveLength(1);
  expect(fake.repo(REPO).pulls.get(pull.number)).toMatchObject({ merged: true, mergeCommitSha: merged.sha });
  expect(j.dashboard()?.body).toContain("**Idle**");
  const doneAt = j.issue(n)?.events.find((e) => e.event === "labeled" && e.label === "bosun:done")?.createdAt ?? 0;
  expect(doneAt, "bosun:done was added after the merge").toBeGreaterThanOrEqual(fake.repo(REPO).pulls.get(pull.number)?.mergedAt ?? Number.POSITIVE_INFINITY);
  return n;
}
