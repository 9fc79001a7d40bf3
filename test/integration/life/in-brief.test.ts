/**
 * The whole life of an in-brief item, on the shipped workflows played job by job against the fake
 * GitHub, with the real App: issue form → approval → snapshot → claim → dispatch → work
 * check/agent/land → pull request → acceptance → gate passes → separation fails, then passes after
 * an independent approval → merge (the required checks enforced) → deployment → verify → done,
 * issue closed, dashboard idle. Judged from what the fake recorded. Stage figures are printed.
 */
import { afterEach, describe, expect, test } from "vitest";
import { startVersionServer, json, type VersionServer } from "../verify/version-server.js";
import { judge } from "./judge-life.js";
import { SNAPSHOT_MARKER } from "../../../src/core/brief/snapshot.js";
import { BOT, briefForm, startLife, type Life } from "./life-world.js";

let life: Life | undefined;
let version: VersionServer | undefined;
afterEach(async () => {
  await life?.close();
  await version?.close();
  life = undefined;
});

describe("the whole life of an in-brief item", () => {
  test("issue form to merged, verified and done: bosun/gate success on the PR head, separation only after an independent approval, one frozen snapshot, dashboard idle", async () => {
    life = await startLife();
    const { fake, people, meter } = life;
    const j = judge(fake);

    try {
      meter.stage("file and approve");
      const n = await people.triager.openIssue("[brief] Honor Retry-After", briefForm());
      await people.maintainer.label(n, "bosun:ready");
      await fake.webhooks.flush();
      expect(j.snapshots(n)).toHaveLength(1);

      meter.stage("claim, dispatch, work, PR, acceptance, gate");
      await life.settle();
      const workRuns = j.runsOf(".github/workflows/bosun-work.yml");
      expect(workRuns.map((r) => [Number(r.inputs["item"]), r.conclusion])).toEqual([[n, "success"]]);
      const pull = j.pull(n);
      expect(pull, "the land job opened the item's pull request").toBeDefined();
      if (pull === undefined) return;
      expect(j.issue(pull.number)?.user).toBe(BOT);
      expect(j.runsOf(".github/workflows/bosun-acceptance.yml").map((r) => [r.headSha, r.conclusion])).toEqual([[pull.headSha, "success"]]);

      meter.stage("verdicts");
      const gate = j.appCheck(pull.headSha, "bosun/gate");
      expect(gate?.status).toBe("completed");
      expect.soft(gate?.conclusion, `bosun/gate said: ${gate?.output.title ?? ""}\n${gate?.output.summary ?? ""}`).toBe("success");
      // A run that succeeded is "PR open, gate pending", not done: bosun:done means merged.
      expect.soft(j.labels(n), "bosun:done before the merge").not.toContain("bosun:done");
      // No independent approval yet: the App's separation status holds the merge (pending or failure, never success).
      const waiting = j.statuses(pull.headSha, "bosun/separation").filter((s) => s.appId === 42).at(-1);
      expect(["pending", "failure"], `bosun/separation said: ${waiting?.description ?? "nothing"}`).toContain(waiting?.state);
      expect(await people.maintainer.merge(pull.number)).toMatchObject({ ok: false, status: 405, message: expect.stringMatching(/^Required status check "bosun\/separation" is (expected|failing)\.$/) });

      meter.stage("independent approval");
      await people.reviewer.approve(pull.number);
      await life.settle();
      expect(j.statuses(pull.headSha, "bosun/separation").filter((s) => s.appId === 42).at(-1)?.state).toBe("success");

      meter.stage("merge");
      const merged = await people.maintainer.merge(pull.number);
      expect(merged.ok).toBe(true);
      if (!merged.ok) return;
      await life.settle();

      meter.stage("deploy and verify");
      version = await startVersionServer((_n, _req, res) => json(res, { build: { sha: merged.sha } }));
      await people.deployer.deploy(merged.sha, "production", version.url);
      await life.settle();
      const verifyRuns = j.runsOf(".github/workflows/bosun-verify.yml").filter((r) => r.conclusion !== "skipped");
      expect(verifyRuns.map((r) => r.conclusion)).toEqual(["success"]);
      // The end, as the fake holds it.
      expect(j.issue(n)).toMatchObject({ state: "closed", stateReason: "completed" });
      expect(j.labels(n)).toContain("bosun:done");
      const snapshots = j.snapshots(n);
      expect(snapshots).toHaveLength(1);
      expect(snapshots[0]?.updatedAt, "the frozen snapshot was never edited").toBe(snapshots[0]?.createdAt);
      expect(fake.repo("acme/app").pulls.get(pull.number)).toMatchObject({ merged: true, mergeCommitSha: merged.sha });
      expect(j.dashboard()?.body).toContain("**Idle**");
      const doneAt = j.issue(n)?.events.find((e) => e.event === "labeled" && e.label === "bosun:done")?.createdAt ?? 0;
      expect(doneAt, "bosun:done was added after the merge").toBeGreaterThanOrEqual(fake.repo("acme/app").pulls.get(pull.number)?.mergedAt ?? Number.POSITIVE_INFINITY);
      // One snapshot ever posted for the one approval: none posted and deleted again.
      expect(life.posted.filter((c) => c.issue === n && c.user === BOT && c.body.trimStart().startsWith(SNAPSHOT_MARKER))).toHaveLength(1);
    } finally {
      process.stdout.write(`\nwhole life, in brief:\n${meter.table()}\n`);
    }
  }, 120_000);
});
