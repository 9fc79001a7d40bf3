/**
 * The tick's money as tables of plain facts (docs/budgets.md, "On GitHub"): the caps of `budgets:`
 * against the marks in the claim records — reservations of runs in flight, reported costs, kept
 * reservations — what the plan grants (with its reservation in the grant's record), holds, refuses
 * or pauses, and what it shows.
 */
import { describe, expect, it } from "vitest";
import type { Brief } from "../../../src/core/brief/brief.js";
import { briefHash, parseBriefObject } from "../../../src/core/brief/parse-brief.js";
import { giveBackIn, outcomeOf, reserveIn, settleIn, SPEND_KEPT_MS } from "../../../src/core/budget/claim-spend.js";
import { parseClaimCommit, renderBatchMessage, type ClaimRecord, type SpendMark } from "../../../src/core/claims/claim-record.js";
import { approved, grantOver } from "../../../src/core/claims/record-transitions.js";
import { bosunConfigSchema, type BosunConfig } from "../../../src/core/config/bosun-config.js";
import { landingFor } from "../../../src/core/engine/landing-for.js";
import { stepOptionsOf } from "../../../src/core/scheduler/step-options-of.js";
import { landHeld } from "../../../src/core/scheduler/land-held.js";
import { planTick } from "../../../src/core/scheduler/plan-tick.js";
import type { ItemFacts } from "../../../src/core/scheduler/tick-facts.js";
import type { TickPlan } from "../../../src/core/scheduler/tick-plan.js";

// A Wednesday, noon UTC: its day began at midnight, its week on Monday.
const NOW = Date.UTC(2026, 11, 2, 12);
const DAY = 86_400_000;
const M = 1_000_000;
const APPROVAL = { id: 900, by: "mona", at: NOW - 60_000 };
const SCREENED = { approval: { kind: "approved" as const, approval: APPROVAL, bodyEditedAt: null }, evidence: null };

const configOf = (budgets: unknown, size = 5, extraPools: Record<string, unknown> = {}): BosunConfig => bosunConfigSchema.parse({ budgets, pools: { default: { size, dispatch: { kind: "workflow", workflow: "w.yml" } }, ...extraPools } });
const FLEET = configOf({ fleet: { day_usd: 1.5 }, item_usd: 0.5 });

function brief(id: string, over: Record<string, unknown> = {}): Brief {
  const parsed = parseBriefObject({ id, goal: `Do ${id}.`, constraints: { paths: ["src/**"] }, acceptance: { command: "npm test" }, size_cap: 100, claim_key: `task:${id}`, ...over }, { name: "test" });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.brief;
}

/** Item `n`, approved and screened, queued oldest first by `n`; `over` changes its record. */
function queued(n: number, over: Partial<ClaimRecord> = {}, b: Brief = brief(`i${n}`), labels: string[] = []): ItemFacts {
  const record: ClaimRecord = { key: b.claim_key, holder: "app-1", epoch: 0, state: "approved", leaseUntil: 0, at: NOW - 50_000, approval: APPROVAL, briefHash: briefHash(b), briefId: b.id, ...over };
  return { n, ref: `refs/bosun/claims/${n}`, sha: `sha${n}`, floor: 0, record, issue: { title: `i${n}`, labels: ["bosun:ready", ...labels], createdAt: NOW - 3_600_000 + n, open: true, completed: false, author: "tia", brief: { ok: true, brief: b, hash: briefHash(b) } }, ...SCREENED };
}

const mark = (epoch: number, reserve: number, over: Partial<SpendMark> = {}): SpendMark => ({ epoch, at: NOW - 3_600_000, pool: "default", reserveMicros: reserve * M, ...over });
/** An item whose run is in flight (epoch 1), reserving `reserve` dollars. */
const flying = (n: number, reserve: number): ItemFacts => ({ ...queued(n, { state: "held", epoch: 1, pool: "default", leaseUntil: NOW + 600_000, grantedAt: NOW - 60_000, spend: [mark(1, reserve)] }), worker: { kind: "live" } });
/** An item whose run ended: `ok` (merged, done) or not, having reserved `reserve` and reported `cost` (undefined: nothing). */
const ended = (n: number, reserve: number, cost: number | undefined, ok: boolean, at = NOW - 3_600_000): ItemFacts =>
  queued(n, { state: "settled", epoch: 1, outcome: { ok, disposition: ok ? "ok" : "human", summary: "" }, spend: [mark(1, reserve, { at, ...(cost === undefined ? {} : { costMicros: cost * M }) })] });

const plan = (items: ItemFacts[], config = FLEET, now = NOW): TickPlan => planTick({ now, holder: "app-1", config, items });
const grants = (p: TickPlan): number[] => p.writes.filter((w) => w.grant).map((w) => w.n);
const reasonOf = (p: TickPlan, n: number): string | undefined => p.view.queue.flatMap((q) => q.items).find((i) => i.n === n)?.reason;

describe("planTick with budgets: what it grants and holds", () => {
  const cases: Array<{ name: string; items: ItemFacts[]; config?: BosunConfig; granted: number[]; held: number[] }> = [
    { name: "grants while reservations fit under the fleet's day cap, then holds the rest", items: [1, 2, 3, 4, 5].map((n) => queued(n)), granted: [1, 2, 3], held: [4, 5] },
    { name: "counts what other replicas' runs in flight reserved (their marks are in the records it reads)", items: [flying(1, 0.5), flying(2, 0.5), queued(3), queued(4)], granted: [3], held: [4] },
    { name: "a run that reported its cost counts at that cost, not its reservation", items: [ended(1, 0.5, 0.1, true), ended(2, 0.5, 0.1, false), queued(3), queued(4), queued(5)], granted: [3, 4], held: [5] },
    { name: "a run that reported no cost keeps its reservation as spent", items: [ended(1, 0.5, undefined, false), ended(2, 0.5, undefined, false), queued(3), queued(4)], granted: [3], held: [4] },
    { name: "spend of yesterday does not count against today's cap", items: [ended(1, 1.5, 1.5, true, NOW - DAY), queued(2)], granted: [2], held: [] },
    { name: "spend of yesterday counts against the week's cap", items: [ended(1, 1.5, 1.5, true, NOW - DAY), queued(2)], config: configOf({ fleet: { week_usd: 1.5 }, item_usd: 0.5 }), granted: [], held: [2] },
    { name: "a brief's own budget.usd is what it reserves", items: [queued(1, {}, brief("big", { budget: { usd: 1.25 } })), queued(2), queued(3)], granted: [1], held: [2, 3] },
    { name: "a retry spends again from the same cap: its earlier grant's spend stays in its record", items: [queued(1, { state: "released", epoch: 2, notBefore: NOW - 1, spend: [mark(1, 0.5), mark(2, 0.5)] }), queued(2), queued(3)], granted: [1], held: [2, 3] },
    { name: "a raised cap releases what was held", items: [flying(1, 0.5), flying(2, 0.5), flying(3, 0.5), queued(4), queued(5)], config: configOf({ fleet: { day_usd: 3 }, item_usd: 0.5 }), granted: [4, 5], held: [] },
  ];
  it.each(cases)("$name", ({ items, config, granted, held }) => {
    const p = plan(items, config);
    expect(grants(p)).toEqual(granted);
    for (const n of held) expect(reasonOf(p, n), `#${n}`).toMatch(/^held by budget/);
    // Held is not failed: nothing is written for a held item, and it stays queued.
    for (const n of held) expect(p.writes.find((w) => w.n === n)).toBeUndefined();
    expect(p.view.idle).toBe(false);
  });

  it("writes the reservation in the grant's own record, in the same batch, and hands it to the dispatch", () => {
    const p = plan([queued(1)]);
    const w = p.writes.find((x) => x.n === 1);
    expect(w).toMatchObject({ grant: true, next: { state: "held", epoch: 1, spend: [{ epoch: 1, at: NOW, pool: "default", reserveMicros: 500_000 }] } });
    expect(p.effects.find((e) => e.kind === "dispatch")).toMatchObject({ n: 1, reserve: 500_000 });
  });

  it("the first held item names the cap, what it reserves, what is left and when the window resets; those behind it say whom they wait behind", () => {
    const p = plan([flying(1, 0.5), flying(2, 0.75), queued(3), queued(4)]);
    expect(reasonOf(p, 3)).toBe("held by budget: budgets.fleet.day_usd has $0.25 left of its UTC day, the item reserves $0.50; resets 2026-12-03T00:00:00.000Z");
    expect(reasonOf(p, 4)).toBe("held by budget, behind #3: budgets.fleet.day_usd has $0.25 left of its UTC day; resets 2026-12-03T00:00:00.000Z");
    expect(p.view.paused).toBeUndefined();
  });

  it("with nothing in flight and only held work left, the fleet is paused by its budget, not idle", () => {
    const p = plan([ended(1, 1.5, 1.5, true), queued(2), queued(3)]);
    expect(grants(p)).toEqual([]);
    expect(p.view.idle).toBe(false);
    expect(p.view.paused).toMatch(/^held by budget: budgets\.fleet\.day_usd has \$0\.00 left/);
  });

  it("a pool's cap holds only that pool", () => {
    const config = configOf({ item_usd: 0.5, pools: { slow: { day_usd: 0.5 } } }, 5, { slow: { size: 5, dispatch: { kind: "workflow", workflow: "w.yml" } } });
    const p = plan([queued(1, {}, brief("s1"), ["pool/slow"]), queued(2, {}, brief("s2"), ["pool/slow"]), queued(3), queued(4)], config);
    expect(grants(p).sort()).toEqual([1, 3, 4]);
    expect(reasonOf(p, 2)).toMatch(/^held by budget: budgets\.pools\.slow\.day_usd/);
  });

  it("under a cap, an item with nothing to reserve is not claimed, says why, and keeps the fleet from idle", () => {
    const p = plan([queued(1)], configOf({ fleet: { day_usd: 5 } }));
    expect(grants(p)).toEqual([]);
    expect(p.view.waiting).toMatchObject([{ n: 1, reason: expect.stringMatching(/^not claimed: budget: no cost to reserve/) as unknown }]);
    expect(p.view.idle).toBe(false);
  });

  it("an item with no figure reserves the p90 of what its class's runs reported", () => {
    const p = plan([ended(1, 0.3, 0.3, true), queued(2)], configOf({ fleet: { day_usd: 5 } }));
    expect(p.writes.find((w) => w.n === 2)?.next.spend).toMatchObject([{ reserveMicros: 300_000 }]);
  });

  it("shows each cap's spend and reservations, and spend today and this week by what became of the runs", () => {
    const config = configOf({ fleet: { day_usd: 5, week_usd: 20 }, item_usd: 0.5 });
    const p = plan([flying(1, 0.5), ended(2, 0.5, 0.25, true), ended(3, 0.5, undefined, false), ended(4, 2, 2, true, NOW - DAY)], config);
    expect(p.view.budget?.caps).toEqual([
      { name: "budgets.fleet.day_usd", window: "day", micros: 5 * M, spent: 0.75 * M, reserved: 0.5 * M, resetsAt: Date.UTC(2026, 11, 3) },
      { name: "budgets.fleet.week_usd", window: "week", micros: 20 * M, spent: 2.75 * M, reserved: 0.5 * M, resetsAt: Date.UTC(2026, 11, 7) },
    ]);
    expect(p.view.budget?.today).toEqual({ accepted: 0.25 * M, failed: 0.5 * M, open: 0.5 * M });
    expect(p.view.budget?.week).toEqual({ accepted: 2.25 * M, failed: 0.5 * M, open: 0.5 * M });
  });

  it("without budgets and with nothing reserved, no money is shown and nothing is reserved", () => {
    const p = plan([queued(1)], configOf({}));
    expect(p.view.budget).toBeUndefined();
    expect(p.writes.find((w) => w.n === 1)?.next.spend).toBeUndefined();
  });
});

describe("the money in a claim record", () => {
  const held: ClaimRecord = { key: "task:x", holder: "app-1", epoch: 2, state: "held", leaseUntil: NOW + 600_000, at: NOW, spend: [mark(1, 0.5, { costMicros: 0.2 * M }), mark(2, 0.5)] };
  const options = stepOptionsOf(configOf({}));

  it("a landing with a reported cost replaces the reservation of its epoch only", () => {
    const next = landHeld(held, landingFor({ kind: "done" }, 2, NOW, options), { holder: "work", now: NOW, pull: 7, cost: { wall_clock_s: 10, usd: 0.12 } });
    expect(next.spend).toEqual([mark(1, 0.5, { costMicros: 0.2 * M }), mark(2, 0.5, { costMicros: 120_000 })]);
  });

  it("a landing that reported no cost keeps the reservation as spent", () => {
    const next = landHeld(held, landingFor({ kind: "failed", failure: "retry", reason: "x" }, 2, NOW, options), { holder: "tick", now: NOW });
    expect(next.spend).toEqual(held.spend);
    expect(settleIn(held, 2, Number.NaN)).toBe(held);
  });

  it("a grant nobody was sent for gives its reservation back", () => {
    expect(giveBackIn(held, 2).spend).toEqual([mark(1, 0.5, { costMicros: 0.2 * M })]);
  });

  it("travels through a new grant and a new approval, and marks older than every window are dropped at the next grant", () => {
    const old = { ...held, state: "settled" as const, spend: [mark(1, 0.5, { at: NOW - SPEND_KEPT_MS - 1 }), mark(2, 0.5)] };
    const again = approved(old, "task:x", "app-1", NOW, APPROVAL, { hash: "h", id: "x" }, 0);
    expect(again.spend).toEqual(old.spend);
    const g = grantOver(again, "task:x", "app-1", 600_000, NOW, { pool: "default" }, 0);
    if (!("next" in g)) throw new Error("not granted");
    expect(g.next.spend).toEqual(old.spend);
    expect(reserveIn(g.next, "default", 0.5 * M, NOW).spend).toEqual([mark(2, 0.5), { epoch: 3, at: NOW, pool: "default", reserveMicros: 0.5 * M }]);
  });

  it.each([
    ["in flight", "open", { state: "held" as const, epoch: 2 }, 2],
    ["held at a later epoch (it was retried or reclaimed)", "failed", { state: "held" as const, epoch: 2 }, 1],
    ["in review", "open", { state: "review" as const, epoch: 2 }, 2],
    ["done", "accepted", { state: "settled" as const, epoch: 2, outcome: { ok: true, disposition: "ok" as const, summary: "" } }, 2],
    ["for a human", "failed", { state: "settled" as const, epoch: 2, outcome: { ok: false, disposition: "human" as const, summary: "" } }, 2],
    ["back in the queue", "failed", { state: "released" as const, epoch: 2 }, 2],
  ])("a run whose item is %s counts as %s", (_, out, r, epoch) => {
    expect(outcomeOf(r, mark(epoch, 1))).toBe(out);
  });

  it("is read back from a batch commit, and a malformed mark makes the record unbelievable", () => {
    const ref = "refs/bosun/claims/1";
    const good = parseClaimCommit(renderBatchMessage([{ ref, from: undefined, record: held }]));
    expect(good !== undefined && "byRef" in good ? good.byRef.get(ref)?.record.spend : undefined).toEqual(held.spend);
    const bad = parseClaimCommit(renderBatchMessage([{ ref, from: undefined, record: { ...held, spend: [{ ...mark(2, 0.5), reserveMicros: -1 }] } }]));
    expect(bad !== undefined && "byRef" in bad ? bad.byRef.get(ref) : "unparsed").toBeUndefined();
  });
});
