/**
 * One table, both faces (issue: "one engine for real"): each row is a small queue of jobs told in
 * plain facts, played to the end by the local engine (the drain's scheduler, in memory) and by the
 * GitHub tick's plan (planTick over claim records, a run ending between two ticks). Both must
 * dispatch the same jobs in the same order and leave the same jobs out. The rows are the cases
 * where the faces once decided differently: a blocker named by brief id that went to a human, a
 * date-only `due`, `fair` with the lengths it learnt, and a run that outlives its lease.
 */
import { describe, expect, it } from "vitest";
import { ManualClock } from "../../../src/adapters/memory/manual-clock.js";
import { MemoryClaimStore } from "../../../src/adapters/memory/memory-claim-store.js";
import { MemoryJournal } from "../../../src/adapters/memory/memory-journal.js";
import type { Band, Brief } from "../../../src/core/brief/brief.js";
import { dueTime } from "../../../src/core/brief/due-time.js";
import { briefHash, parseBriefObject } from "../../../src/core/brief/parse-brief.js";
import type { ClaimRecord } from "../../../src/core/claims/claim-record.js";
import { bosunConfigSchema } from "../../../src/core/config/bosun-config.js";
import { Engine } from "../../../src/core/engine/engine.js";
import type { EngineLoop } from "../../../src/core/engine/engine-loop.js";
import { ENGINE_DEFAULTS } from "../../../src/core/engine/engine-options.js";
import type { WorkItem } from "../../../src/core/engine/work-item.js";
import { policies, type PolicyName } from "../../../src/core/queue/queue-policy.js";
import { planTick } from "../../../src/core/scheduler/plan-tick.js";
import type { ItemFacts } from "../../../src/core/scheduler/tick-facts.js";
import { done, failed, type Stop } from "../../../src/core/stop/stop.js";

const HOUR = 3_600_000;
const NOW = Date.UTC(2026, 11, 2, 12);
const LEASE = 10 * 60_000;
/** The GitHub face's tick interval: longer than the lease, so a lease can lapse between ticks. */
const TICK_MS = 20 * 60_000;

/** A job as both faces can be told it. */
interface Job {
  readonly id: string;
  /** Its task class (the claim key's namespace): what `fair` learns lengths by. */
  readonly cls?: string;
  readonly band?: Band;
  /** How long before the start it was queued, hours. */
  readonly ageH: number;
  readonly due?: string;
  readonly blockedBy?: readonly string[];
  /** How long its run takes, hours. */
  readonly runH?: number;
  /** How its run ends: done (lands ok) or a failure nobody can classify (a human decides). */
  readonly ends?: "done" | "human";
}

interface Row {
  readonly name: string;
  readonly policy: PolicyName;
  readonly jobs: readonly Job[];
  /** The jobs dispatched, in order. */
  readonly order: readonly string[];
  /** Jobs never dispatched. */
  readonly never?: readonly string[];
}

const stopOf = (j: Job): Stop => (j.ends === "human" ? failed("unclassified", `${j.id} could not be classified`) : done());

/** The local face: the engine with one worker slot, a worker that takes the job's hours of the manual clock. */
async function localOrder(row: Row): Promise<string[]> {
  const clock = new ManualClock(NOW);
  const order: string[] = [];
  const jobs = new Map(row.jobs.map((j) => [j.id, j]));
  const items: WorkItem<null>[] = row.jobs.map((j) => {
    const due = dueTime(j.due);
    return { id: j.id, band: j.band ?? 2, createdAt: NOW - j.ageH * HOUR, ...(due === undefined ? {} : { due }), unblocks: row.jobs.filter((o) => o.blockedBy?.includes(j.id)).length, pool: "default", claimKey: `${j.cls ?? "task"}:${j.id}`, blockedBy: [...(j.blockedBy ?? [])], payload: null };
  });
  const loop: EngineLoop<null> = {
    name: "table",
    selectQueue: async () => items,
    tierPolicy: () => "standard",
    dispatch: async (_claim, it) => {
      order.push(it.id);
      const j = jobs.get(it.id) as Job;
      clock.advance((j.runH ?? 1) * HOUR);
      return { stop: stopOf(j) };
    },
    land: async () => {},
    onIdle: () => {},
  };
  const engine = new Engine(loop, new MemoryClaimStore(), clock, new MemoryJournal(), { ...ENGINE_DEFAULTS, holder: "drain-1", pool: 1, leaseMs: LEASE, policy: policies[row.policy] });
  await engine.run();
  return order;
}

function briefOf(j: Job): Brief {
  const parsed = parseBriefObject(
    { id: j.id, goal: `Do ${j.id}.`, constraints: { paths: ["src/**"] }, acceptance: { command: "npm test" }, size_cap: 100, claim_key: `${j.cls ?? "task"}:${j.id}`, priority: j.band ?? 2, blocked_by: [...(j.blockedBy ?? [])], ...(j.due === undefined ? {} : { due: j.due }) },
    { name: j.id },
  );
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.brief;
}

/**
 * The GitHub face: issues approved at the start, one slot, and the tick's plan applied as the
 * apply stage would (each write becomes the record); a granted run ends its hours later and its
 * record settles as the landing would write it, merged for done and to a human otherwise.
 */
function githubOrder(row: Row): string[] {
  const config = bosunConfigSchema.parse({ policy: row.policy, lease: "10m", pools: { default: { size: 1, dispatch: { kind: "workflow", workflow: "bosun-work.yml" } } } });
  const order: string[] = [];
  const approval = { id: 900, by: "mona", at: NOW - 60_000 };
  const issues = row.jobs.map((j, i) => {
    const brief = briefOf(j);
    const hash = briefHash(brief);
    const record: ClaimRecord = { key: brief.claim_key, holder: "app-1", epoch: 0, state: "approved", leaseUntil: 0, at: NOW - 50_000, approval, briefHash: hash, briefId: j.id };
    return { n: i + 1, job: j, brief, hash, record };
  });
  let now = NOW;
  let endsAt = 0;
  for (let tick = 0; tick < 1000; tick++) {
    const items: ItemFacts[] = issues.map((x) => ({
      n: x.n,
      ref: `refs/bosun/claims/${x.n}`,
      sha: `sha${x.n}-${tick}`,
      floor: 0,
      record: x.record,
      issue: { title: x.job.id, labels: ["bosun:ready"], createdAt: NOW - x.job.ageH * HOUR, open: x.record.state !== "settled", completed: x.record.state === "settled" && x.record.outcome?.ok === true, author: "tia", brief: { ok: true, brief: x.brief, hash: x.hash } },
      approval: { kind: "approved", approval, bodyEditedAt: null },
      evidence: null,
      ...(x.record.state === "held" ? { worker: { kind: "live" as const } } : {}),
    }));
    const plan = planTick({ now, holder: "app-1", config, items });
    for (const w of plan.writes) {
      const x = issues.find((i) => i.n === w.n);
      if (x === undefined) continue;
      if (w.next.state === "held" && x.record.state !== "held") {
        order.push(x.job.id);
        endsAt = now + (x.job.runH ?? 1) * HOUR;
      }
      x.record = w.next;
    }
    const running = issues.find((x) => x.record.state === "held");
    if (running === undefined) {
      if (plan.writes.length === 0) return order;
      continue;
    }
    // Ticks come every TICK_MS, longer than the lease: a long run's lease lapses between two
    // ticks while its worker lives. When its hours have passed, its landing is recorded once.
    now = Math.min(now + TICK_MS, endsAt);
    if (now < endsAt) continue;
    const stop = stopOf(running.job);
    const ok = stop.kind === "done";
    const disposition = ok ? "ok" : "human";
    running.record = { ...running.record, state: "settled", at: now, outcome: { ok, disposition, summary: ok ? "merged" : "a human decides" }, landing: { stop, disposition, summary: ok ? "merged" : "a human decides", by: "app-1" } };
  }
  throw new Error(`${row.name}: the GitHub face did not settle in 1000 ticks`);
}

const ROWS: readonly Row[] = [
  {
    name: "a parent named by brief id that went to a human keeps its child out for good",
    policy: "hybrid",
    jobs: [
      { id: "parent", ageH: 3, ends: "human" },
      { id: "child", ageH: 2, blockedBy: ["parent"] },
      { id: "other", ageH: 1 },
    ],
    order: ["parent", "other"],
    never: ["child"],
  },
  {
    name: "a parent that lands ok releases its child, which then runs before younger work",
    policy: "oldest",
    jobs: [
      { id: "child", ageH: 5, blockedBy: ["parent"] },
      { id: "parent", ageH: 3 },
      { id: "later", ageH: 1 },
    ],
    order: ["parent", "child", "later"],
  },
  {
    name: "a blocker that names nothing either face knows keeps its item out, and the rest runs",
    policy: "oldest",
    jobs: [
      { id: "orphan", ageH: 3, blockedBy: ["nobody"] },
      { id: "free", ageH: 1 },
    ],
    order: ["free"],
    never: ["orphan"],
  },
  {
    name: "a date-only due is the end of that day (UTC): a due at 13:00 the same day goes first",
    policy: "index",
    jobs: [
      { id: "end-of-day", ageH: 1, due: "2026-12-02" },
      { id: "one-pm", ageH: 1, due: "2026-12-02T13:00:00Z" },
    ],
    order: ["one-pm", "end-of-day"],
  },
  {
    name: "fair orders by the lengths each class has shown, not by a fixed hour",
    policy: "fair",
    jobs: [
      { id: "slow-1", cls: "slow", ageH: 10, runH: 5 },
      { id: "fast-1", cls: "fast", ageH: 9, runH: 0.1 },
      { id: "slow-2", cls: "slow", ageH: 2 },
      { id: "fast-2", cls: "fast", ageH: 1 },
    ],
    // With a fixed hour slow-2 (older) would go before fast-2.
    order: ["slow-1", "fast-1", "fast-2", "slow-2"],
  },
  {
    name: "a run that outlives its lease while its worker lives is renewed and runs once, never reclaimed",
    policy: "oldest",
    jobs: [
      { id: "long", ageH: 2, runH: 3 },
      { id: "next", ageH: 1 },
    ],
    order: ["long", "next"],
  },
];

describe("both faces, one table", () => {
  for (const row of ROWS) {
    it(row.name, async () => {
      const local = await localOrder(row);
      const github = githubOrder(row);
      expect({ local }).toEqual({ local: row.order });
      expect({ github }).toEqual({ github: row.order });
      for (const id of row.never ?? []) {
        expect(local).not.toContain(id);
        expect(github).not.toContain(id);
      }
    });
  }
});
