/**
 * The in-brief life again, with GitHub unkind where it is: every webhook delivery sent twice (the
 * same delivery id, as a redelivery), one in ten dropped, batches reordered, writes slowed, and two
 * App replicas behind one webhook URL of which one is killed mid-tick, right after the first claim
 * grant either of them writes (GraphQL `updateRefs` or `POST git/refs`): its grant is stranded,
 * never dispatched by it. The life must end the same, with exactly one
 * snapshot comment ever posted for the one approval and one `bosun work` run for the item (no double
 * dispatch), counted from the fake. A timed sweep (every 2 s) stands in for the App's
 * `BOSUN_TICK_EVERY`, since a dropped delivery is noticed only by it.
 */
import { afterEach, describe, expect, test } from "vitest";
import { judge } from "./judge-life.js";
import { startLife, type Life } from "./life-world.js";
import { walkInBriefLife } from "./walk-life.js";
import { runIsFor } from "../../support/run-items.js";

/** The brief is the first issue of a fresh repository (the dashboard comes after it). */
const ITEM = 1;

let life: Life | undefined;
afterEach(async () => {
  await life?.close();
  life = undefined;
});

/** Plays runs and deliveries until the fake shows `done()` (a timed sweep may be what moves the life), or the deadline passes. */
function settleUntil(current: Life, done: () => boolean, deadlineMs = 45_000): () => Promise<void> {
  return async () => {
    const until = Date.now() + deadlineMs;
    for (;;) {
      await current.actions.runUntilQuiet();
      if (done() || Date.now() > until) return;
      await new Promise((r) => setTimeout(r, 250));
    }
  };
}

describe("the whole life against an unkind GitHub", () => {
  test("redelivered, dropped and reordered webhooks, slow writes, a replica killed mid-tick: the same end, one snapshot ever posted, one work run", async () => {
    life = await startLife({ replicas: 2, seed: 7, deliveries: { duplicate: 1, drop: 0.1, reorder: true }, tickEveryMs: 2_000 });
    const current = life;
    current.fake.faults.add({ kind: "latency", ms: [5, 40], route: /^(POST|PATCH|PUT|DELETE) \/repos\// });
    // The first replica to write a claim grant dies right after GitHub applied it.
    let killed: string | undefined;
    for (const replica of current.replicas) {
      replica.killAfter((method, url, body) => {
        const grant = method === "POST" && ((/\/graphql$/.test(url) && body.includes("updateRefs")) || /\/git\/refs$/.test(url));
        if (grant && killed === undefined) killed = replica.name;
        return grant && killed === replica.name;
      });
    }
    const j = judge(current.fake);
    // Each stage waits for what it needs to have happened, however the deliveries went.
    let stage = 0;
    const head = () => j.pull(ITEM)?.headSha ?? "";
    const goals = [
      // The work ran, its pull request was judged.
      () => j.appCheck(head(), "bosun/gate")?.status === "completed",
      // The approval was relayed to separation.
      () => j.statuses(head(), "bosun/separation").some((s) => s.appId === 42 && s.state === "success"),
      // The merge's events were heard.
      () => true,
      // The deployment was verified, and a tick since (a delivery, or the timer when deliveries were
      // dropped) wrote the dashboard's idle line — on a busy machine that can come after the run.
      () => j.runsOf(".github/workflows/bosun-verify.yml").some((r) => r.conclusion === "success" || r.conclusion === "failure") && (j.dashboard()?.body ?? "").includes("**Idle**"),
    ];
    try {
      await walkInBriefLife(current, async () => settleUntil(current, goals[Math.min(stage++, goals.length - 1)] ?? (() => true))());
    } finally {
      // Judged whatever stage the life reached: the crash happened, and nothing was posted or dispatched twice.
      expect.soft(killed, "a replica was killed mid-tick, right after its grant").toBeDefined();
      expect.soft(current.replicas.filter((r) => r.dead).map((r) => r.name)).toEqual(killed === undefined ? [] : [killed]);
      expect.soft(j.runsOf(".github/workflows/bosun-work.yml").filter((r) => runIsFor(r, ITEM)).length, "bosun work runs for the item").toBeLessThanOrEqual(1);
      const deliveries = current.fake.webhooks.deliveries;
      process.stdout.write(`\nwhole life, unkind (${deliveries.length} deliveries, ${deliveries.filter((d) => d.duplicate).length} redelivered, ${deliveries.filter((d) => d.dropped).length} dropped; replica killed: ${killed ?? "none"}; requests by replica: ${current.replicas.map((r) => `${r.name} ${r.requests}`).join(", ")}):\n${current.meter.table()}\n`);
    }
  }, 180_000);
});
