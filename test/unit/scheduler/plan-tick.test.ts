/** The tick's plan as tables of plain facts: no GitHub, no fake — facts in, records, effects and labels out. */
import { describe, expect, it } from "vitest";
import type { Brief } from "../../../src/core/brief/brief.js";
import { briefHash, parseBriefObject } from "../../../src/core/brief/parse-brief.js";
import type { ClaimRecord } from "../../../src/core/claims/claim-record.js";
import { bosunConfigSchema } from "../../../src/core/config/bosun-config.js";
import { planTick } from "../../../src/core/scheduler/plan-tick.js";
import type { ItemFacts, TickFacts } from "../../../src/core/scheduler/tick-facts.js";
import type { TickPlan } from "../../../src/core/scheduler/tick-plan.js";

const NOW = Date.UTC(2026, 11, 2, 12);
const config = bosunConfigSchema.parse({ pools: { default: { size: 2, dispatch: { kind: "workflow", workflow: "bosun-work.yml" } } } });
const verifying = bosunConfigSchema.parse({ verify: { required: true }, pools: { default: { size: 2, dispatch: { kind: "workflow", workflow: "bosun-work.yml" } } } });

function brief(over: Record<string, unknown> = {}): Brief {
  const parsed = parseBriefObject({ id: "x", goal: "Do x.", constraints: { paths: ["src/**"] }, acceptance: { command: "npm test" }, size_cap: 100, ...over }, { name: "test" });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.brief;
}
const B = brief();
const H = briefHash(B);
const APPROVAL = { id: 900, by: "mona", at: NOW - 60_000 };

function issue(over: Partial<NonNullable<ItemFacts["issue"]>> = {}, b: Brief = B): NonNullable<ItemFacts["issue"]> {
  return { title: "x", labels: ["bosun:ready"], createdAt: NOW - 3_600_000, open: true, completed: false, author: "tia", brief: { ok: true, brief: b, hash: briefHash(b) }, ...over };
}
function record(over: Partial<ClaimRecord> = {}): ClaimRecord {
  return { key: B.claim_key, holder: "app-1", epoch: 0, state: "approved", leaseUntil: 0, at: NOW - 50_000, approval: APPROVAL, briefHash: H, briefId: "x", ...over };
}
function item(n: number, over: Partial<ItemFacts> = {}): ItemFacts {
  return { n, ref: `refs/bosun/claims/${n}`, sha: `sha${n}`, floor: 0, issue: issue(), ...over };
}
const plan = (items: ItemFacts[], c = config): TickPlan => planTick({ now: NOW, holder: "app-1", config: c, items } satisfies TickFacts);
const written = (p: TickPlan, n: number): ClaimRecord | undefined => p.writes.find((w) => w.n === n)?.next;
const labelsOf = (p: TickPlan, n: number): readonly string[] | undefined => p.labels.find((l) => l.n === n)?.labels;
const effectKinds = (p: TickPlan, n: number): string[] => p.effects.filter((e) => e.kind !== "journal" && e.n === n).map((e) => e.kind);
const FRESH = { kind: "approved" as const, approval: APPROVAL, bodyEditedAt: null };
const SCREENED = { approval: FRESH, evidence: null };

describe("planTick: approvals", () => {
  it("records a maintainer's approval once, with the brief's hash, and posts the snapshot after it (the label says queued: no status comment)", () => {
    const p = plan([item(1, { sha: undefined, approval: FRESH })]);
    expect(written(p, 1)).toMatchObject({ state: "approved", approval: APPROVAL, briefHash: H, briefId: "x", epoch: 0, statusComment: false });
    expect(p.writes[0]?.from).toBeUndefined();
    expect(effectKinds(p, 1)).toEqual(["snapshot"]);
    expect(labelsOf(p, 1)).toEqual(["bosun:ready", "bosun:queued"]);
  });

  it("does nothing again for an approval already recorded (a redelivery, another replica)", () => {
    const p = plan([item(1, { record: record(), approval: FRESH, issue: issue({ labels: ["bosun:ready", "bosun:queued"] }) })], bosunConfigSchema.parse({}));
    expect(p.writes).toEqual([]);
    expect(p.effects.filter((e) => e.kind !== "journal")).toEqual([]);
    expect(p.labels).toEqual([]);
  });

  it("an approval that does not count (its actor lacks the role) records nothing and says why", () => {
    const p = plan([item(1, { sha: undefined, approval: { kind: "refused", approval: APPROVAL, why: "mona has the write role; approving needs maintain or more" } })]);
    expect(p.writes).toEqual([]);
    expect(p.view.notes[0]?.note).toContain("approving needs maintain");
  });

  it("an invalid brief is recorded as invalid and gets one problems comment, never a snapshot", () => {
    const p = plan([item(1, { sha: undefined, approval: FRESH, issue: issue({ brief: { ok: false, problems: [{ field: "goal", message: "required", source: "issue #1" }] } }) })]);
    expect(written(p, 1)).toMatchObject({ state: "invalid" });
    expect(effectKinds(p, 1)).toEqual(["problems"]);
    expect(labelsOf(p, 1)).toEqual(["bosun:ready", "bosun:invalid-brief"]);
  });

  it.each([
    ["after it", APPROVAL.at + 30_000],
    ["in the approval's own second (GitHub's times are whole seconds)", APPROVAL.at],
  ])("an approval whose issue was edited %s freezes nothing: recorded without a brief, no snapshot, never a candidate, the status says to approve again", (_, editedAt) => {
    const p = plan([item(1, { sha: undefined, approval: { ...FRESH, bodyEditedAt: editedAt } })]);
    const r = written(p, 1);
    expect(r).toMatchObject({ state: "approved", approval: APPROVAL });
    expect(r?.briefHash).toBeUndefined();
    expect(effectKinds(p, 1)).toEqual(["status"]);
    expect(p.effects.find((e) => e.kind === "status")).toMatchObject({ create: true, extras: { waiting: expect.stringContaining("edited after it was approved") as unknown } });
    expect(labelsOf(p, 1)).toEqual(["bosun:ready", "bosun:hold"]);
    expect(p.screen).toEqual([]);
    expect(p.view.waiting).toMatchObject([{ n: 1, reason: expect.stringContaining("no text was frozen") as unknown }]);
  });

  it("an approval of a body last edited before it freezes that body", () => {
    const p = plan([item(1, { sha: undefined, approval: { ...FRESH, bodyEditedAt: APPROVAL.at - 1_000 } })]);
    expect(written(p, 1)).toMatchObject({ state: "approved", briefHash: H });
    expect(effectKinds(p, 1)).toEqual(["snapshot"]);
  });

  it("a new approval whose last edit is not known records nothing and says why (fail closed)", () => {
    const p = plan([item(1, { sha: undefined, approval: { kind: "approved", approval: APPROVAL } })]);
    expect(p.writes).toEqual([]);
    expect(p.effects.filter((e) => e.kind !== "journal")).toEqual([]);
    expect(p.view.notes[0]?.note).toContain("not taken in yet");
  });

  it("a re-approval of an item that froze nothing freezes the text approved now and lifts the hold", () => {
    const { briefHash: _hash, briefId: _id, ...unfrozen } = record();
    const again = { id: 901, by: "mona", at: NOW - 1_000 };
    const p = plan([item(1, { record: unfrozen, approval: { kind: "approved", approval: again, bodyEditedAt: APPROVAL.at + 30_000 }, issue: issue({ labels: ["bosun:ready", "bosun:hold"] }) })], bosunConfigSchema.parse({}));
    expect(written(p, 1)).toMatchObject({ state: "approved", approval: again, briefHash: H });
    expect(effectKinds(p, 1).slice(0, 2)).toEqual(["snapshot", "status"]);
    expect(labelsOf(p, 1)).toEqual(["bosun:ready", "bosun:queued"]);
  });

  it("the brief changed under a standing approval: the status comment says why once, when the hold goes on", () => {
    const changed = brief({ goal: "Do something else." });
    const first = plan([item(1, { record: record(), issue: issue({ labels: ["bosun:ready", "bosun:queued"] }, changed) })], bosunConfigSchema.parse({}));
    expect(first.effects.filter((e) => e.kind === "status")).toMatchObject([{ n: 1, create: false, extras: { waiting: expect.stringContaining("changed after it was approved") as unknown } }]);
    const later = plan([item(1, { record: record(), issue: issue({ labels: ["bosun:ready", "bosun:queued", "bosun:hold"] }, changed) })], bosunConfigSchema.parse({}));
    expect(later.effects.filter((e) => e.kind === "status")).toEqual([]);
  });

  it("a withdrawn approval (the label removed, as the events say) ends a queued item before it runs", () => {
    const p = plan([item(1, { record: record(), approval: { kind: "withdrawn", by: "mona", at: NOW - 1 }, issue: issue({ labels: ["bosun:ready", "bosun:queued"] }) })]);
    expect(written(p, 1)).toMatchObject({ state: "withdrawn" });
    expect(labelsOf(p, 1)).toEqual(["bosun:ready"]);
    expect(p.effects.some((e) => e.kind === "dispatch")).toBe(false);
  });

  it("a triager putting the queued label back on an unapproved issue queues nothing: the queue is the records", () => {
    const p = plan([item(1, { record: record({ state: "withdrawn" }), issue: issue({ labels: ["bosun:queued"] }) })]);
    expect(p.writes).toEqual([]);
    expect(labelsOf(p, 1)).toEqual([]);
  });

  it("a claim ref someone else wrote is shown, and the approval is recorded over it", () => {
    const p = plan([item(1, { sha: "forged", forged: { signedBy: undefined }, approval: FRESH })]);
    expect(p.view.notes[0]?.note).toContain("not written by Bosun");
    expect(p.writes[0]).toMatchObject({ from: "forged", next: { state: "approved" } });
  });
});

describe("planTick: the queue and grants", () => {
  it("a queued item is granted only once screened: its approval read again and the evidence probe asked", () => {
    const unscreened = plan([item(1, { record: record() })]);
    expect(unscreened.screen).toEqual([1]);
    expect(unscreened.writes).toEqual([]);
    expect(unscreened.view.idle).toBe(false);
    const p = plan([item(1, { record: record(), ...SCREENED })]);
    expect(written(p, 1)).toMatchObject({ state: "held", epoch: 1, pool: "default", briefHash: H, approval: APPROVAL, dispatchBy: NOW + 60_000 });
    expect(p.writes[0]?.grant).toBe(true);
    // The grant's winner re-posts a snapshot or status the approval's winner died before posting (checked first).
    expect(effectKinds(p, 1)).toEqual(["snapshot", "status", "dispatch"]);
    expect(labelsOf(p, 1)).toEqual(["bosun:ready", "bosun:claimed"]);
  });

  it.each([
    ["made under a minute ago is granted once the evidence probe is asked, its events not read again", 59_000, "held"],
    ["made a minute ago or more has its events read again first", 60_000, undefined],
  ])("an approval %s", (_name, age, state) => {
    const approval = { ...APPROVAL, at: NOW - age };
    const p = plan([item(1, { record: record({ approval }), evidence: null })]);
    expect(written(p, 1)?.state).toBe(state);
    expect(p.screen).toEqual(state === undefined ? [1] : []);
  });

  it("an approval read this tick decides, however recent the recorded one: withdrawn, or replaced by a label of someone who may not approve, grants nothing", () => {
    const recent = { ...APPROVAL, at: NOW - 1_000 };
    for (const approval of [{ kind: "withdrawn" as const, by: "mona", at: NOW - 500 }, { kind: "refused" as const, approval: { id: 901, by: "agent", at: NOW - 500 }, why: "agent has the write role" }]) {
      const p = plan([item(1, { record: record({ approval: recent }), approval, evidence: null })]);
      expect(written(p, 1)?.state, approval.kind).not.toBe("held");
      expect(p.effects.some((e) => e.kind === "dispatch"), approval.kind).toBe(false);
    }
  });

  it("approval and grant in one batch: a new approval with a free slot is claimed in the same tick", () => {
    const p = plan([item(1, { sha: undefined, ...SCREENED })]);
    expect(p.writes).toHaveLength(1);
    expect(written(p, 1)).toMatchObject({ state: "held", epoch: 1, approval: APPROVAL, statusComment: false });
    expect(effectKinds(p, 1)).toEqual(["snapshot", "dispatch"]);
  });

  it("evidence of other work denies the grant and the slot goes to the next item", () => {
    const p = plan([item(1, { record: record(), approval: FRESH, evidence: "pull request #9 is open for it" }), item(2, { record: record({ key: "task:y" }), ...SCREENED, issue: issue({ createdAt: NOW - 1_000 }) })], bosunConfigSchema.parse({ pools: { default: { size: 1, dispatch: { kind: "workflow", workflow: "w.yml" } } } }));
    // The first pass gives the one slot to #1 (the oldest); denied, it is excluded and #2 gets it once screened.
    expect(written(p, 1)).toBeUndefined();
    expect(p.view.waiting.find((w) => w.n === 1)?.reason).toContain("pull request #9");
  });

  it("the brief changed after approval: not run, held, and the status says to approve again", () => {
    const changed = brief({ goal: "Do something else." });
    const p = plan([item(1, { record: record(), ...SCREENED, issue: issue({ labels: ["bosun:ready", "bosun:queued"] }, changed) })]);
    expect(p.writes).toEqual([]);
    expect(p.view.waiting[0]?.reason).toContain("changed after it was approved");
    expect(labelsOf(p, 1)).toEqual(["bosun:ready", "bosun:queued", "bosun:hold"]);
  });

  it("past its attempts an item goes to a human instead of another worker", () => {
    const p = plan([item(1, { record: record({ state: "released", epoch: 3, notBefore: NOW - 1 }), ...SCREENED })]);
    expect(written(p, 1)).toMatchObject({ state: "settled", outcome: { ok: false, disposition: "human" } });
    expect(p.effects.some((e) => e.kind === "dispatch")).toBe(false);
  });

  it("the queue shown is what is still queued: a granted item is in flight only, a denied one waits only", () => {
    const p = plan([item(1, { record: record({ key: "task:w" }), approval: FRESH, evidence: "pull request #9 is open for it" }), item(2, { record: record(), ...SCREENED }), item(3, { record: record({ key: "task:z" }), ...SCREENED })]);
    expect(written(p, 2)).toMatchObject({ state: "held" });
    expect(p.view.inFlight.map((i) => i.n)).toEqual([2]);
    expect(p.view.waiting.map((w) => w.n)).toEqual([1]);
    expect(p.view.queue[0]?.items.map((i) => i.n)).toEqual([3]);
  });

  it("a pool full of held work grants nothing more; pools count by the pool recorded at grant", () => {
    const heldIn = (n: number): ItemFacts => item(n, { record: record({ key: `task:h${n}`, state: "held", epoch: 1, pool: "default", leaseUntil: NOW + 600_000, at: NOW - 1000 }), worker: { kind: "live" }, issue: issue({ labels: ["bosun:ready", "bosun:claimed", "pool/other"] }) });
    const p = plan([heldIn(1), heldIn(2), item(3, { record: record({ key: "task:z" }), ...SCREENED })]);
    expect(written(p, 3)).toBeUndefined();
    expect(p.view.queue[0]?.items.map((i) => i.n)).toEqual([3]);
  });
});

describe("planTick: blockers, one rule on both faces", () => {
  const child = brief({ id: "child", blocked_by: ["parent"], claim_key: "task:child" });
  const childItem = (): ItemFacts => item(2, { record: record({ key: "task:child", briefId: "child", briefHash: briefHash(child) }), ...SCREENED, issue: issue({}, child) });
  it("a parent that went to a human keeps its child out for good", () => {
    const p = plan([item(1, { record: record({ briefId: "parent", state: "settled", outcome: { ok: false, disposition: "human", summary: "no" } }) }), childItem()]);
    expect(written(p, 2)).toBeUndefined();
    expect(p.view.waiting.find((w) => w.n === 2)?.reason).toBe("blocked: parent did not land ok");
  });
  it("a parent on hold (approved, not run) keeps its child waiting", () => {
    const p = plan([item(1, { record: record({ briefId: "parent" }), issue: issue({ labels: ["bosun:ready", "bosun:queued", "bosun:hold"] }) }), childItem()]);
    expect(written(p, 2)).toBeUndefined();
    expect(p.view.waiting.find((w) => w.n === 2)?.reason).toBe("blocked by parent");
  });
  it("a parent done releases its child", () => {
    const p = plan([item(1, { record: record({ briefId: "parent", state: "settled", outcome: { ok: true, disposition: "ok", summary: "merged" } }), issue: issue({ open: false, completed: true }) }), childItem()]);
    expect(written(p, 2)).toMatchObject({ state: "held" });
  });
});

describe("planTick: a worker's end, and the pull request's life", () => {
  const heldRecord = record({ state: "held", epoch: 1, pool: "default", leaseUntil: NOW + 600_000, grantedAt: NOW - 60_000, at: NOW - 60_000 });
  const labels = ["bosun:ready", "bosun:claimed"];
  it("a run that ended done with its pull request open is 'PR open, gate pending', never done", () => {
    const p = plan([item(1, { record: heldRecord, issue: issue({ labels }), worker: { kind: "ended", stop: { kind: "done" }, run: 77 }, pull: { number: 5, state: "open", head: "h5", bosunBranch: true } })]);
    expect(written(p, 1)).toMatchObject({ state: "review", pull: 5, landing: { disposition: "review", run: 77 } });
    expect(labelsOf(p, 1)).toEqual(["bosun:ready", "bosun:review"]);
    expect(p.view.idle).toBe(false);
  });
  it("a run that ended done with no pull request goes to a human", () => {
    const p = plan([item(1, { record: heldRecord, issue: issue({ labels }), worker: { kind: "ended", stop: { kind: "done" } } })]);
    expect(written(p, 1)).toMatchObject({ state: "settled", outcome: { ok: false, disposition: "human" } });
    expect(labelsOf(p, 1)).toEqual(["bosun:ready", "bosun:needs-human"]);
  });
  it("a grant whose worker never showed by its dispatch deadline is taken back at once, not at lease end", () => {
    const p = plan([item(1, { record: { ...heldRecord, dispatchBy: NOW - 1 }, issue: issue({ labels }), worker: { kind: "unseen" } })]);
    expect(written(p, 1)).toMatchObject({ state: "released", notBefore: NOW });
  });
  it("a grant to an agent assigned, labelled or asked by comment has no dispatch deadline: its worker shows only by its pull request, minutes later", () => {
    for (const kind of [{ kind: "assign", assignee: "Copilot" }, { kind: "label", label: "agent" }, { kind: "comment", mention: "@agent" }]) {
      const c = bosunConfigSchema.parse({ pools: { default: { size: 2, dispatch: kind } } });
      const granted = written(plan([item(1, { record: record(), ...SCREENED })], c), 1);
      expect(granted, kind.kind).toMatchObject({ state: "held", epoch: 1 });
      expect(granted?.dispatchBy, kind.kind).toBeUndefined();
    }
  });

  it("a live worker keeps its claim even past the dispatch deadline", () => {
    const p = plan([item(1, { record: { ...heldRecord, dispatchBy: NOW - 1 }, issue: issue({ labels }), worker: { kind: "live" } })]);
    expect(written(p, 1)).toBeUndefined();
  });

  const review = record({ state: "review", epoch: 1, pull: 5, grantedAt: NOW - 600_000 });
  const open = { number: 5, state: "open" as const, head: "h5", bosunBranch: true };
  const inReview = (over: Partial<ItemFacts>, c = config) => plan([item(1, { record: review, issue: issue({ labels: ["bosun:ready", "bosun:review"] }), pull: open, ...over })], c);
  it.each([
    ["off the brief: refused for a human, with the gate's words", { verdict: "fail" as const, failure: "refuse" as const, reason: "paths: docs/x.md is outside the brief", sha: "h5" }, { state: "settled", outcome: { disposition: "refuse" } }, "bosun:needs-human"],
    ["the acceptance command failed: retried at the next epoch", { verdict: "fail" as const, failure: "retry" as const, reason: "acceptance: exited 1", sha: "h5" }, { state: "released" }, "bosun:queued"],
    ["could not check: cannot classify, for a human", { verdict: "could-not-check" as const, reason: "diff: no brief", sha: "h5" }, { state: "settled", outcome: { disposition: "human" } }, "bosun:needs-human"],
  ])("a gate verdict %s", (_name, gate, want, label) => {
    const p = inReview({ gate });
    expect(written(p, 1)).toMatchObject(want);
    expect(labelsOf(p, 1)).toEqual(["bosun:ready", label]);
    const status = p.effects.find((e) => e.kind === "status");
    expect(status?.kind === "status" ? status.extras.gate?.reason : undefined).toBe(gate.reason);
  });
  it("a verdict on an older head says nothing about the current one", () => {
    const p = inReview({ gate: { verdict: "fail", failure: "refuse", reason: "old", sha: "older" } });
    expect(p.writes).toEqual([]);
  });
  it("a pass waits for separation and a merge", () => {
    const p = inReview({ gate: { verdict: "pass", reason: "pass", sha: "h5" } });
    expect(p.writes).toEqual([]);
    expect(p.view.idle).toBe(false);
  });
  it("merged (no deployment verification): done, and the issue closed if it is still open", () => {
    const p = inReview({ pull: { ...open, state: "merged", mergeSha: "m1" } });
    expect(written(p, 1)).toMatchObject({ state: "settled", outcome: { ok: true, disposition: "ok" } });
    expect(effectKinds(p, 1)).toContain("close");
    expect(labelsOf(p, 1)).toEqual(["bosun:ready", "bosun:done"]);
  });
  it("merged where the repository verifies deployments: waits for the verification, still in review", () => {
    const p = inReview({ pull: { ...open, state: "merged", mergeSha: "m1" } }, verifying);
    expect(written(p, 1)).toMatchObject({ state: "merged", merge: "m1" });
    expect(labelsOf(p, 1)).toBeUndefined();
    expect(p.view.idle).toBe(false);
  });
  it("closed unmerged: a human decides", () => {
    const p = inReview({ pull: { ...open, state: "closed" } });
    expect(written(p, 1)).toMatchObject({ state: "settled", outcome: { ok: false, disposition: "human" } });
  });
  it("a refused item whose pull request a human fixed and merged ends done", () => {
    const p = plan([item(1, { record: record({ state: "settled", epoch: 1, outcome: { ok: false, disposition: "refuse", summary: "off brief" } }), issue: issue({ labels: ["bosun:ready", "bosun:needs-human"], open: false, completed: true }), pull: { ...open, state: "merged", mergeSha: "m2" } })]);
    expect(written(p, 1)).toMatchObject({ state: "settled", outcome: { ok: true } });
    expect(labelsOf(p, 1)).toEqual(["bosun:ready", "bosun:done"]);
  });
});

describe("planTick: the status comment, only where there is something to say", () => {
  const heldRecord = record({ state: "held", epoch: 1, pool: "default", leaseUntil: NOW + 600_000, grantedAt: NOW - 60_000, at: NOW - 60_000 });
  const reviewing = { record: record({ state: "review", epoch: 1, pull: 5 }), issue: issue({ labels: ["bosun:ready", "bosun:review"] }), pull: { number: 5, state: "open" as const, head: "h5", bosunBranch: true } };
  const statusEffect = (p: TickPlan, n = 1) => p.effects.find((e) => e.kind === "status" && e.n === n);
  it.each([
    ["a grant", { record: record({ statusComment: false }), ...SCREENED }, "held"],
    ["a run that ended done with its pull request open", { record: { ...heldRecord, statusComment: false }, issue: issue({ labels: ["bosun:ready", "bosun:claimed"] }), worker: { kind: "ended" as const, stop: { kind: "done" as const } }, pull: { number: 5, state: "open" as const, head: "h5", bosunBranch: true } }, "review"],
    ["a merge", { ...reviewing, record: record({ state: "review", epoch: 1, pull: 5, statusComment: false }), pull: { ...reviewing.pull, state: "merged" as const, mergeSha: "m1" } }, "settled"],
  ])("the happy path says it in labels and on the dashboard: %s posts and edits no status comment", (_name, facts, state) => {
    const p = plan([item(1, facts)]);
    expect(written(p, 1)).toMatchObject({ state, statusComment: false });
    expect(statusEffect(p)).toBeUndefined();
  });
  it.each([
    ["a run that ended failed/retry goes back to the queue", { record: { ...heldRecord, statusComment: false }, issue: issue({ labels: ["bosun:ready", "bosun:claimed"] }), worker: { kind: "ended" as const, stop: { kind: "failed" as const, failure: "retry" as const, reason: "runner lost" } } }, "released"],
    ["a gate verdict off the brief", { ...reviewing, record: record({ state: "review", epoch: 1, pull: 5, statusComment: false }), gate: { verdict: "fail" as const, failure: "refuse" as const, reason: "paths: docs/x.md is outside the brief", sha: "h5" } }, "settled"],
    ["a grant nobody dispatched, taken back at its deadline", { record: { ...heldRecord, dispatchBy: NOW - 1, statusComment: false }, issue: issue({ labels: ["bosun:ready", "bosun:claimed"] }), worker: { kind: "unseen" as const } }, "released"],
  ])("%s: the writer whose batch won posts the status comment, and the record says it has one", (_name, facts, state) => {
    const p = plan([item(1, facts)]);
    expect(written(p, 1)).toMatchObject({ state, statusComment: true });
    expect(statusEffect(p)).toMatchObject({ kind: "status", create: true, record: { state, statusComment: true } });
  });
  it("once an item has a status comment it follows every move, even back on the happy path", () => {
    const p = plan([item(1, { record: record({ state: "released", epoch: 1, notBefore: NOW - 1, statusComment: true }), ...SCREENED })]);
    expect(written(p, 1)).toMatchObject({ state: "held", epoch: 2, statusComment: true });
    expect(statusEffect(p)).toMatchObject({ create: true, record: { state: "held" } });
  });
  it("the brief changed under a standing approval of an item with no status comment: one record write says it has one, and its writer posts it", () => {
    const changed = brief({ goal: "Do something else." });
    const first = plan([item(1, { record: record({ statusComment: false }), issue: issue({ labels: ["bosun:ready", "bosun:queued"] }, changed) })], bosunConfigSchema.parse({}));
    expect(written(first, 1)).toMatchObject({ state: "approved", briefHash: H, statusComment: true });
    expect(statusEffect(first)).toMatchObject({ create: true, extras: { waiting: expect.stringContaining("changed after it was approved") as unknown } });
    expect(labelsOf(first, 1)).toEqual(["bosun:ready", "bosun:queued", "bosun:hold"]);
    const later = plan([item(1, { record: record({ statusComment: true }), issue: issue({ labels: ["bosun:ready", "bosun:queued", "bosun:hold"] }, changed) })], bosunConfigSchema.parse({}));
    expect(later.writes).toEqual([]);
    expect(statusEffect(later)).toBeUndefined();
  });
  it("a record written before Bosun kept this (statusComment unknown) is followed as before: its comment is edited, created only by an approval's or a grant's winner", () => {
    const landing = plan([item(1, { record: heldRecord, issue: issue({ labels: ["bosun:ready", "bosun:claimed"] }), worker: { kind: "ended", stop: { kind: "done" } }, pull: { number: 5, state: "open", head: "h5", bosunBranch: true } })]);
    expect(written(landing, 1)?.statusComment).toBeUndefined();
    expect(statusEffect(landing)).toMatchObject({ create: false });
    expect(statusEffect(plan([item(1, { record: record(), ...SCREENED })]))).toMatchObject({ create: true });
  });
  it("an item whose claim ref was cleaned up (an epoch floor above 0) may carry an older life's status comment: unknown, so it is looked for", () => {
    const p = plan([item(1, { sha: undefined, floor: 2, approval: FRESH })]);
    expect(written(p, 1)?.statusComment).toBeUndefined();
  });
});

describe("planTick: idle", () => {
  it("idle only when nothing is queued, held, in review or waiting", () => {
    expect(plan([]).view.idle).toBe(true);
    expect(plan([item(1, { record: record({ state: "settled", outcome: { ok: true, disposition: "ok", summary: "" } }), issue: issue({ labels: ["bosun:ready", "bosun:done"], open: false, completed: true }) })]).view.idle).toBe(true);
    expect(plan([item(1, { record: record({ state: "merged", pull: 5, merge: "m" }), issue: issue({ labels: ["bosun:ready", "bosun:review"] }), pull: { number: 5, state: "merged", head: "h", mergeSha: "m", bosunBranch: true } })], verifying).view.idle).toBe(false);
    expect(plan([item(1, { record: record({ state: "released", notBefore: NOW + 1000 }) })]).view.idle).toBe(false);
  });
});

describe("planTick: labels of another writer's new record", () => {
  const claimed = (at: number, holder: string): ItemFacts => item(1, { record: record({ state: "held", epoch: 1, pool: "default", leaseUntil: NOW + 600_000, holder, at }), worker: { kind: "live" }, issue: issue({ labels: ["bosun:ready", "bosun:queued"] }) });

  it("are left for a minute to the writer that wrote it (its own apply sets them), then put right by anyone", () => {
    expect(labelsOf(plan([claimed(NOW - 10_000, "app-2")]), 1)).toBeUndefined();
    expect(labelsOf(plan([claimed(NOW - 61_000, "app-2")]), 1)).toEqual(["bosun:ready", "bosun:claimed"]);
    // This writer's own record: its mirror is its own to repair at once.
    expect(labelsOf(plan([claimed(NOW - 10_000, "app-1")]), 1)).toEqual(["bosun:ready", "bosun:claimed"]);
  });
});
