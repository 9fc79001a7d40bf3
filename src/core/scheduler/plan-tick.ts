import type { ClaimRecord, RecordedLanding } from "../claims/claim-record.js";
import { grantOver, merged, reclaimed, released, requeued, settled } from "../claims/record-transitions.js";
import { decideStep } from "../engine/decide-step.js";
import type { Decision, LandingDecision } from "../engine/decision.js";
import type { HeldClaim, ReviewingItem } from "../engine/step-state.js";
import { landEvent } from "../journal/land-event.js";
import { problemText } from "../brief/brief.js";
import type { BudgetHold } from "../budget/cap-room.js";
import { toMicros } from "../budget/budget-cap.js";
import { reserveIn } from "../budget/claim-spend.js";
import { holdSummary } from "../engine/engine-purse.js";
import { taskClassOf } from "../metrics/task-class.js";
import { landHeld } from "./land-held.js";
import { budgetReasons, tickMoney } from "./tick-money.js";
import { mirrorLabels } from "./mirror-labels.js";
import { approvalStands } from "./approval-stands.js";
import { queueOfTick, type QueuedCandidate } from "./queue-of-tick.js";
import { stepOptionsOf } from "./step-options-of.js";
import type { ItemFacts, TickFacts } from "./tick-facts.js";
import type { TickPlan } from "./tick-plan.js";
import { startDraft } from "./tick-draft.js";
import { recordApprovals } from "./record-approvals.js";
import { heldClaimOf } from "./held-claim-of.js";
import { orderEffects } from "./order-effects.js";

/** How long another writer's new record is left for that writer to mirror in its labels. */
const OTHERS_MIRROR_MS = 60_000;

/**
 * The tick's one decision (docs/lifecycle.md, docs/scheduling.md): from the facts gathered, every
 * change of every item — approvals recorded, withdrawals, landings, renewals, reclaims, reviews
 * moving on, grants — as one batch of records, the effects that follow it (comments, dispatches,
 * journal), the labels that mirror the new records, and the dashboard's view. Pure: the same
 * facts give the same plan, on the App and in the Action's `schedule` mode.
 *
 * Grants need two facts read only for the items about to be granted (the approval, read again
 * from the issue's events, and the evidence probe): an unscreened winner is listed in `screen`
 * and holds its slot; the tick reads those facts and plans again.
 */
export function planTick(facts: TickFacts): TickPlan {
  const { now, holder, config } = facts;
  const L = config.labels;
  const rules = stepOptionsOf(config);
  const byN = new Map(facts.items.map((i) => [i.n, i]));
  const draft = startDraft(facts);
  const { current, writes, effects, journal, view, title, write } = draft;
  const recorded = (landing: LandingDecision): RecordedLanding => ({ stop: landing.stop, disposition: landing.disposition, summary: landing.summary, ...(landing.evidence === undefined ? {} : { evidence: landing.evidence }), by: holder });

  // 1. Approvals recorded, or withdrawn.
  const clearHold = recordApprovals(facts, draft);

  // 2. The one step over the whole state: held claims, reviews, and the queue.
  const held: HeldClaim[] = [];
  const reviewing: ReviewingItem[] = [];
  for (const item of facts.items) {
    const r = current.get(item.n);
    if (r === undefined || writes.get(item.n)?.next.state === "withdrawn") continue;
    if (r.state === "held") held.push(heldClaimOf(item, r, config.lease * 1000, config.labels.ready));
    else if ((r.state === "review" || r.state === "merged") && item.pull !== undefined) {
      // A verdict on another head (an older push) says nothing about this one.
      const gate = item.gate !== undefined && item.gate.sha === item.pull.head ? item.gate : undefined;
      reviewing.push({ id: String(item.n), epoch: r.epoch, merged: r.state === "merged", pull: { number: item.pull.number, state: item.pull.state, ...(item.pull.mergeSha === undefined ? {} : { mergeSha: item.pull.mergeSha }) }, ...(gate === undefined ? {} : { gate }), verify: config.verify.required });
    }
  }
  const queue = queueOfTick(facts, current);
  view.queue.push(...queue.view);
  view.waiting.push(...queue.waiting);
  const candidates = new Map(queue.ready.map((c) => [String(c.n), c]));
  // Money: what the caps have used, read from the marks in the records (docs/budgets.md, "On GitHub").
  const money = tickMoney(config, facts.items.map((i) => i.record), now);
  const ready = queue.ready.map((c) => ({ id: String(c.n), pool: c.pool, taskClass: taskClassOf({ claim_key: c.key }), ...(c.brief.budget.usd === undefined ? {} : { usd: toMicros(c.brief.budget.usd) }) }));
  const decisions = decideStep({ now, held, reviewing, ready, waiting: queue.waiting.length, budget: money.step }, rules);

  const screen: number[] = [];
  const grantedKeys: string[] = [];
  const holds = new Map<number, BudgetHold>();
  const claimed = new Set<number>();
  let paused: BudgetHold | undefined;
  let unpriced = 0;
  for (const d of decisions) {
    if (d.kind === "idle") continue;
    // Held by budget: it stays queued, unclaimed, and the dashboard says which cap and until when.
    if (d.kind === "hold") holds.set(Number(d.id), d.hold);
    else if (d.kind === "paused") paused = d.hold;
    else if (d.kind === "refuse") {
      unpriced++;
      view.waiting.push({ n: Number(d.id), title: title(byN.get(Number(d.id)) ?? { n: Number(d.id) }), reason: `not claimed: budget: ${d.reason}` });
    }
    if (d.kind === "paused" || d.kind === "hold" || d.kind === "refuse") continue;
    if (d.kind === "claim") claimed.add(Number(d.id));
    const item = byN.get(Number(d.id));
    const r = item === undefined ? undefined : current.get(item.n);
    if (item === undefined || r === undefined) {
      if (d.kind === "claim") claim(d, candidates.get(d.id));
      continue;
    }
    applyDecision(d, item, r);
  }

  function applyDecision(d: Exclude<Decision, { kind: "idle" | "paused" | "hold" | "refuse" }>, item: ItemFacts, r: ClaimRecord): void {
    switch (d.kind) {
      case "land":
      case "settle-to-human": {
        const landing = d.landing;
        const ended = item.worker?.kind === "ended" ? item.worker : undefined;
        // Done is the worker's claim; the pull request is where it is judged (docs/lifecycle.md).
        const pull = item.pull?.state === "open" || item.pull?.state === "merged" ? item.pull.number : undefined;
        const next = d.kind === "land" ? landHeld(r, landing, { holder, now, ...(pull === undefined ? {} : { pull }), ...(ended?.run === undefined ? {} : { run: ended.run }), ...(ended?.cost === undefined ? {} : { cost: ended.cost }) }) : released(r, landing.mode, now, recorded(landing));
        write(item, next);
        const cost = ended?.cost;
        journal.push(landEvent(String(item.n), r.epoch, { stop: landing.stop, ...(landing.evidence === undefined ? {} : { evidence: landing.evidence }), ...(cost === undefined ? {} : { cost }) }, landing.disposition));
        journal.push({ event: "RELEASE", item: String(item.n), epoch: r.epoch });
        effects.push({ kind: "status", n: item.n, record: next, extras: {}, create: false });
        view.landed.push({ n: item.n, title: title(item), disposition: next.state === "review" ? "review" : landing.disposition, summary: next.state === "review" ? `pull request #${next.pull ?? "?"} open: the gate decides` : (next.outcome?.summary ?? landing.summary) });
        return;
      }
      case "renew":
        write(item, { ...r, leaseUntil: now + d.leaseMs, at: now });
        return;
      case "reclaim": {
        const next = reclaimed(r, now);
        write(item, next);
        journal.push({ event: "RECLAIM", item: String(item.n), from: d.holder, epoch: d.epoch });
        effects.push({ kind: "status", n: item.n, record: next, extras: {}, create: false });
        return;
      }
      case "advance": {
        if (d.to === "merged") {
          const next = merged(r, holder, now, d.mergeSha);
          write(item, next);
          effects.push({ kind: "status", n: item.n, record: next, extras: {}, create: false });
          view.landed.push({ n: item.n, title: title(item), disposition: "merged", summary: `merged as ${d.mergeSha.slice(0, 12)}; waiting for a verified deployment` });
          return;
        }
        const landing = d.landing;
        const rec = recorded(landing);
        const next = landing.mode.kind === "retry" ? requeued(r, holder, now, landing.mode.notBefore, rec) : settled(r, holder, now, landing.mode.outcome, rec);
        write(item, next);
        journal.push({ event: "RELEASE", item: String(item.n), epoch: r.epoch });
        effects.push({ kind: "status", n: item.n, record: next, extras: item.gate === undefined ? {} : { gate: item.gate }, create: false });
        if (next.outcome?.ok === true && item.issue?.open === true) effects.push({ kind: "close", n: item.n });
        view.landed.push({ n: item.n, title: title(item), disposition: landing.disposition, summary: landing.summary });
        return;
      }
      case "claim":
        claim(d, candidates.get(d.id));
        return;
      case "dispatch":
        return;
    }
  }

  function claim(d: Extract<Decision, { kind: "claim" }>, c: QueuedCandidate | undefined): void {
    if (c === undefined) return;
    const item = c.item;
    const r = current.get(item.n);
    // The approval must still stand as the issue's events say (read this tick, or made a moment
    // ago: `approvalStands`), and nobody else may be on it.
    const stands = approvalStands({ approval: item.approval, record: r }, now);
    if (stands !== true || item.evidence === undefined) {
      screen.push(item.n);
      return;
    }
    if (item.evidence !== null) {
      journal.push({ event: "DENY", item: String(item.n), holder, reason: "evidence", detail: item.evidence });
      view.waiting.push({ n: item.n, title: title(item), reason: item.evidence });
      return;
    }
    const similar = queue.similarTo(c.key, grantedKeys);
    if (similar !== undefined) {
      journal.push({ event: "DENY", item: String(item.n), holder, reason: "similar", detail: similar });
      view.waiting.push({ n: item.n, title: title(item), reason: `too similar to ${similar}` });
      return;
    }
    const leaseMs = Math.max(config.lease * 1000, c.brief.budget.wall_clock * 1000);
    // Only a workflow run shows within seconds of its dispatch. An assignment, a label or a comment
    // shows its worker only when the agent opens a pull request, minutes later: taking such a
    // grant back at the deadline would dispatch the item to a second agent while the first works.
    // Those grants are taken back at lease end, as before the deadline existed.
    const byRun = config.pools[d.pool]?.dispatch.kind === "workflow";
    const g = grantOver(r, c.key, holder, leaseMs, now, { pool: d.pool, briefHash: c.hash, ...(byRun ? { dispatchBy: now + config.dispatch_deadline * 1000 } : {}) }, item.floor);
    if ("denied" in g || "mine" in g) {
      const why = "denied" in g ? g.denied : { reason: "held" as const, detail: `already held by ${holder}` };
      journal.push({ event: "DENY", item: String(item.n), holder, reason: why.reason, detail: why.detail });
      return;
    }
    if (g.next.epoch > config.attempts) {
      // Reclaims count as attempts: past them the item goes to a human, never to another worker.
      const summary = `attempts exhausted (${config.attempts}): not dispatched again`;
      const next = settled(r ?? g.next, holder, now, { ok: false, disposition: "human", summary });
      write(item, next);
      effects.push({ kind: "status", n: item.n, record: next, extras: {}, create: false });
      view.landed.push({ n: item.n, title: title(item), disposition: "human", summary });
      return;
    }
    grantedKeys.push(c.key);
    // The reservation is written in the grant's own record, in the same batch: as atomic as the claim.
    const next = d.reserve === undefined ? g.next : reserveIn(g.next, d.pool, d.reserve, now);
    write(item, next, true);
    journal.push({ event: "CLAIM", item: String(item.n), holder, epoch: next.epoch });
    // The grant's winner also posts the snapshot and the status if the approval's winner died before it did (checked before posting).
    effects.push({ kind: "snapshot", n: item.n, brief: c.brief, approval: next.approval ?? { id: 0, by: "", at: 0 }, first: false }, { kind: "status", n: item.n, record: next, extras: {}, create: true }, { kind: "dispatch", n: item.n, key: c.key, brief: c.brief, hash: c.hash, pool: d.pool, ...(d.reserve === undefined ? {} : { reserve: d.reserve }) });
  }

  // 3. A merge ends any item done, whatever state it was left in (a human fixed what the gate refused).
  for (const item of facts.items) {
    const r = current.get(item.n);
    if (r?.state !== "settled" || r.outcome?.ok === true || writes.has(item.n) || item.pull?.state !== "merged") continue;
    if (config.verify.required) {
      const next = merged(r, holder, now, item.pull.mergeSha ?? "");
      write(item, next);
      effects.push({ kind: "status", n: item.n, record: next, extras: {}, create: false });
      continue;
    }
    const summary = `pull request #${item.pull.number} merged`;
    const next = settled(r, holder, now, { ok: true, disposition: "ok", summary }, { stop: { kind: "done", reason: summary }, disposition: "ok", summary, by: holder });
    write(item, next);
    effects.push({ kind: "status", n: item.n, record: next, extras: {}, create: false });
    if (item.issue?.open === true) effects.push({ kind: "close", n: item.n });
  }

  // 4. The mirrors: labels from the records as they are after this plan, and the view.
  const labels: Array<{ n: number; labels: string[] }> = [];
  for (const item of facts.items) {
    const r = current.get(item.n);
    const issue = item.issue;
    if (issue === undefined) continue;
    const changed = r !== undefined && (r.state === "approved" || r.state === "released") && (!issue.brief.ok || issue.brief.hash !== r.briefHash);
    const next = mirrorLabels(issue.labels, r, L, { changed, clearHold: clearHold.has(item.n) });
    // A record another writer wrote moments ago is that writer's to mirror (its apply sets the
    // labels after its batch): a replica that read it before those writes landed would only set
    // them a second time. A mirror the writer did not manage is put right once this grace is over.
    const othersFresh = r !== undefined && !writes.has(item.n) && r.holder !== holder && now - r.at < OTHERS_MIRROR_MS;
    if (next !== undefined && !othersFresh) labels.push({ n: item.n, labels: next });
    // The brief changed under a standing approval: the status comment says why it waits, once. An
    // item with none gets it from the writer whose batch records that it has one (one record
    // write, so one comment whatever the replicas); one with a comment has it edited when the hold goes on.
    const holdComes = changed && next !== undefined && !issue.labels.some((l) => l.toLowerCase() === L.hold.toLowerCase());
    if (changed && r?.statusComment === false && !writes.has(item.n)) {
      write(item, { ...r, holder, at: now }, false, true);
      effects.push({ kind: "status", n: item.n, record: r, extras: {}, create: true });
    } else if (holdComes && r !== undefined && !writes.has(item.n)) effects.push({ kind: "status", n: item.n, record: r, extras: {}, create: false });
    if (r === undefined) continue;
    if (r.state === "held") view.inFlight.push({ n: item.n, title: title(item), pool: r.pool ?? "default", holder: r.holder, epoch: r.epoch, leaseUntil: r.leaseUntil });
    else if ((r.state === "review" || r.state === "merged") && r.pull !== undefined) view.review.push({ n: item.n, title: title(item), pull: r.pull, state: r.state, ...(item.gate === undefined ? {} : { gate: item.gate.verdict }) });
    else if (r.state === "settled" && r.outcome?.ok !== true && issue.open) view.needsHuman.push({ n: item.n, title: title(item), reason: r.outcome?.summary ?? "" });
    else if (r.state === "invalid" && issue.open) view.invalid.push({ n: item.n, title: title(item), problems: issue.brief.ok ? ["valid now: approve it again to queue it"] : issue.brief.problems.map(problemText) });
  }
  const ordered = orderEffects(draft, byN, queue.waitingReason);
  // Idle is the step's verdict over the whole state, and nothing left held or in review after this
  // plan (a worker's end that this plan turned into a review is still work in flight).
  const inFlight = [...current.values()].some((r) => r?.state === "held" || r?.state === "review" || r?.state === "merged");
  // An item refused for want of a figure to reserve is still approved work: not idle while any.
  const idle = screen.length === 0 && !inFlight && unpriced === 0 && decisions.some((d) => d.kind === "idle");
  // The queue shown is what is still queued once this plan is written: a grant is in flight (or
  // went to a human past its attempts), a denial is waiting, with why — never two places at once.
  const denied = new Set(view.waiting.map((w) => w.n));
  const stillQueued = (n: number): boolean => !denied.has(n) && (current.get(n)?.state === "approved" || current.get(n)?.state === "released");
  const byBudget = budgetReasons(view.queue, holds, claimed);
  const shownQueue = view.queue.map((q) => ({ pool: q.pool, items: q.items.filter((i) => stillQueued(i.n)).map((i) => ({ ...i, reason: byBudget.get(i.n) ?? i.reason })) }));
  const moneyView = { ...(money.view === undefined ? {} : { budget: money.view }), ...(paused === undefined ? {} : { paused: holdSummary(paused) }) };
  return { writes: [...writes.values()], effects: [...ordered, ...journal.map((event) => ({ kind: "journal" as const, event }))], labels, screen, view: { ...view, queue: shownQueue, idle, ...moneyView } };
}
