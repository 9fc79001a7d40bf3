import type { Brief } from "../../core/brief/brief.js";
import type { BosunConfig } from "../../core/config/bosun-config.js";
import type { ClaimToken, DenyReason } from "../../core/claims/claim-token.js";
import { RECENT_MS, type GuardedClaimStore } from "../../core/claims/guarded-claim-store.js";
import type { Clock } from "../../core/engine/clock.js";
import { issueFacts } from "../../core/intake/issue-facts.js";
import type { Journal } from "../../core/journal/journal-event.js";
import { journalEmitter } from "../../core/journal/journal-emitter.js";
import type { QueueItem } from "../../core/queue/queue-item.js";
import { policies } from "../../core/queue/queue-policy.js";
import type { Disposition } from "../../core/stop/stop.js";
import type { Landing } from "./land-item.js";
import type { GitHubClaimStore } from "../../adapters/github/github-claim-store.js";
import type { ClaimRecord } from "../../adapters/github/claim-record.js";
import { decideStep, type HeldClaim, type WorkerState } from "../../core/engine/decide-step.js";
import { stepOptionsOf } from "./step-options-of.js";
import { applyTickEffects } from "./apply-tick-effects.js";
import { runOf, runsOfItem, workerOf } from "./run-of.js";
import { readyCandidates } from "./ready-candidates.js";
import type { PullLink, QueueIssue, SchedulerGitHub, WorkflowRunView } from "./scheduler-github.js";

export interface TickDeps {
  readonly github: SchedulerGitHub;
  /** The claim store: listings, batches, and single landings. */
  readonly store: GitHubClaimStore;
  /** The similarity guard over the store: every new grant is screened by it, and its denials counted. */
  readonly claims: GuardedClaimStore;
  readonly config: BosunConfig;
  readonly clock: Clock;
  readonly journal: Journal;
  /** This replica's holder name. */
  readonly holder: string;
  /** Shadow policy agreement, kept across ticks by the caller. */
  readonly shadow?: { ticks: number; differing: number };
}

/** One item of the queue, with everything the tick decided about it. */
export interface Candidate {
  readonly issue: QueueIssue;
  readonly brief: Brief;
  readonly hash: string;
  readonly commentId: number;
  readonly commentBody: string;
  readonly item: QueueItem;
}

export interface InFlightView {
  readonly issue: number;
  readonly title: string;
  readonly pool: string;
  readonly holder: string;
  readonly epoch: number;
  readonly leaseUntil: number;
}

export interface TickReport {
  /** Other writers kept moving the claims under this tick (every attempt lost its compare-and-swap): it changed nothing. */
  readonly busy: boolean;
  readonly idle: boolean;
  readonly dispatched: readonly number[];
  readonly landed: ReadonlyArray<{ issue: number; disposition: Disposition; summary: string }>;
  readonly reclaimed: readonly number[];
  /** Lapsed leases renewed because their worker still visibly ran (never reclaimed, never dispatched again). */
  readonly revived: readonly number[];
  readonly inFlight: readonly InFlightView[];
  readonly queue: ReadonlyArray<{ pool: string; items: ReadonlyArray<{ issue: number; title: string; band: number; reason: string }> }>;
  readonly skipped: ReadonlyArray<{ issue: number; title: string; reason: string }>;
}

const issueOfRef = (ref: string, prefix: string): number | undefined => {
  const n = Number(ref.slice(prefix.length));
  return ref.startsWith(prefix) && Number.isInteger(n) && n > 0 ? n : undefined;
};

/**
 * One reconcile tick (DESIGN.md, "The app"): rebuild the state from GitHub, land what finished,
 * reclaim what expired, renew what runs, refill every pool, and say whether the fleet is idle.
 * Webhooks only trigger ticks, so a lost, repeated or reordered delivery changes nothing.
 *
 * A tick reads, decides, and then writes every claim change it decided — lands, reclaims,
 * renewals, grants — as one commit and one all-or-nothing ref update; only then does it journal,
 * relabel and dispatch. Replicas ticking at once need no lock: the grants of a batch also move the
 * generation ref from the value the tick read, so of two ticks that decided from the same state
 * one loses, reads again and decides again. Pools stay within their size and no item is granted twice.
 */
export function reconcileTick(deps: TickDeps): Promise<TickReport> {
  // Ticks of one holder run one after another: a holder's own live claim is "already held", so two
  // overlapping ticks of one replica would otherwise race to land the same run.
  const before = running.get(deps.holder) ?? Promise.resolve();
  const next = before.catch(() => undefined).then(() => tickOnce(deps));
  running.set(deps.holder, next);
  const clear = (): void => {
    if (running.get(deps.holder) === next) running.delete(deps.holder);
  };
  next.then(clear, clear);
  return next;
}

const running = new Map<string, Promise<TickReport>>();

/** How many times a tick decides again after losing its batch to another writer. */
const ATTEMPTS = 3;

async function tickOnce(deps: TickDeps): Promise<TickReport> {
  let failed: Lost | undefined;
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const report = await decideAndWrite(deps);
    if (!(report instanceof Lost)) return report;
    failed = report;
  }
  // Races lost every time: others are busy writing. A write that failed with nobody in the way
  // (no permission, no updateRefs on this server) must be heard, not reported as busy forever.
  if (failed !== undefined && !failed.conflict) throw new Error(`the tick could not write its claims: ${failed.detail}`);
  return { busy: true, idle: false, dispatched: [], landed: [], reclaimed: [], revived: [], inFlight: [], queue: [], skipped: [] };
}

/** The tick's batch was not written: nothing happened, decide again from a fresh read. */
class Lost {
  constructor(
    readonly conflict: boolean,
    readonly detail: string,
  ) {}
}

/** A held claim as the tick read it, with what it needs to act on the step's decision. */
interface HeldRef {
  readonly n: number;
  readonly ref: string;
  readonly record: ClaimRecord;
  issue: QueueIssue | undefined;
  readonly claim: HeldClaim;
}

async function decideAndWrite(deps: TickDeps): Promise<TickReport | Lost> {
  const { github, store, config, clock } = deps;
  const labels = config.labels;
  const prefix = config.claims.ref_prefix;
  const leaseMs = config.lease * 1000;
  const emit = journalEmitter(deps.journal, clock);
  const now = clock.now();
  const rules = stepOptionsOf(config);

  const issues = await github.listQueued(labels.queued);
  const byNumber = new Map(issues.map((i) => [i.number, i]));
  // Only a shortcut: if it fails, each snapshot is read on its own when needed.
  await github.prefetchSnapshots(issues, labels.queued).catch(() => undefined);
  const claims = await store.listClaims();
  /** The pool a claim counts against: the one recorded at grant (a claim from before pools were recorded: its issue's). */
  const poolOfClaim = async (record: ClaimRecord, issue: QueueIssue | undefined): Promise<string> => {
    if (record.pool !== undefined) return record.pool;
    const snap = issue === undefined ? undefined : await github.snapshot(issue, true);
    return issue !== undefined && snap?.ok === true ? issueFacts(issue.labels, snap.snapshot.brief, config).pool : "default";
  };
  // Enough runs are listed when every item in flight in a workflow pool has found its run.
  const heldInQueue: Array<{ n: number; epoch: number; grantedAt: number | undefined }> = [];
  for (const c of claims) {
    const n = issueOfRef(c.ref, prefix);
    const issue = n === undefined ? undefined : byNumber.get(n);
    if (c.record.state !== "held" || n === undefined || issue === undefined) continue;
    if (config.pools[await poolOfClaim(c.record, issue)]?.dispatch.kind === "workflow") heldInQueue.push({ n, epoch: c.record.epoch, grantedAt: c.record.grantedAt });
  }
  const runOfHeld = (runs: readonly WorkflowRunView[], h: { n: number; epoch: number; grantedAt: number | undefined }): WorkflowRunView | undefined => runOf(runs, h.n, h.epoch, github.knownRunId(h.n, h.epoch), h.grantedAt);
  const enoughRuns = (runs: readonly WorkflowRunView[]): boolean => heldInQueue.every((h) => runOfHeld(runs, h) !== undefined);
  const batch = store.newBatch(now);
  let runs: readonly WorkflowRunView[] | undefined;
  let pulls: ReadonlyMap<number, readonly PullLink[]> | undefined;
  const lands: Array<{ n: number; issue: QueueIssue | undefined; token: ClaimToken; landing: Landing }> = [];
  const reclaims: Array<{ n: number; holder: string; epoch: number }> = [];
  const inFlight: InFlightView[] = [];
  /** Issues whose claim settled (in this tick or before), and whether they landed ok. */
  const settled = new Map<number, { ok: boolean }>();
  /** Claim keys settled once and proven approved again since: granted over their settled record. */
  const requeued = new Set<string>();
  const liveIds = new Map<number, string | undefined>();
  const forgets: Array<{ ref: string; sha: string }> = [];
  const revived: number[] = [];
  const held: HeldRef[] = [];
  /** Issues that have a claim ref at all (any state). */
  const claimed = new Set(claims.flatMap((c) => issueOfRef(c.ref, prefix) ?? []));

  for (const { ref, sha, record } of claims) {
    const n = issueOfRef(ref, prefix);
    if (n === undefined) continue;
    let issue = byNumber.get(n);
    if (record.state === "settled") {
      // Queued again, with no outcome label, is not proof of a re-approval: a stale listing or a
      // label write that failed (or applied and answered 502) shows exactly that. Only a snapshot
      // newer than the one this claim dispatched proves it (comment ids only grow; a stale read
      // can only show an older one).
      const queuedNow = issue;
      // Queued with no outcome label: a re-approval (the maintainer removed the outcome label and
      // queued it again) or a mirror that did not follow the land. The comments are read fresh on
      // every tick until a newer snapshot shows, and the labels are never "repaired" from the ref:
      // one stale comments read would otherwise erase the re-approval.
      const maybeAgain = queuedNow !== undefined && ![labels.claimed, labels.done, labels.needsHuman].some((l) => queuedNow.labels.includes(l));
      if (queuedNow !== undefined && maybeAgain) {
        const snap = await github.snapshot(queuedNow, false, true);
        if (snap.ok && record.snapshotId !== undefined && snap.commentId > record.snapshotId) {
          requeued.add(record.key);
          continue;
        }
      }
      settled.set(n, { ok: record.outcome?.ok === true });
      // Long settled and out of the queue: cleaned up after this tick's batch, on its own, leaving
      // the epoch floor behind (listings and an Action run's cold start then carry live and recent
      // claims only, and a re-approved issue still starts above every epoch it had).
      if (issue === undefined) forgets.push({ ref, sha });
      // The claim settled but its labels did not follow (a failed write after the land): the ref
      // is the truth, so the mirror is repaired from it.
      const want = record.outcome?.ok === true ? labels.done : labels.needsHuman;
      if (issue !== undefined && !maybeAgain && !issue.labels.includes(want)) await github.setLabels(n, [...new Set([...issue.labels.filter((l) => l !== labels.claimed && l !== labels.queued), want])]);
      continue;
    }
    if (record.state !== "held") continue;
    let left: WorkerState | undefined;
    if (issue === undefined) {
      // Not in the listing: read it. Still open and queued, the listing missed it (pages shift while
      // they are read): it is in flight like any other. Otherwise it left the queue while in flight:
      // closed as completed (a merged PR closing it) is done; anything else is refused — but only
      // once its worker is no longer live (below). The issue as read is kept, so the landing's
      // labels and comment follow.
      const current = await github.issueNow(n);
      if (current !== undefined) issue = current;
      if (current?.open === true && current.labels.includes(labels.queued)) byNumber.set(n, current);
      else left = { kind: "ended", stop: current?.completed === true ? { kind: "done", reason: "issue closed as completed" } : { kind: "failed", failure: "refuse", reason: "the issue left the queue (closed or unlabelled) while in flight" } };
    }
    // The worker is judged from its run and pull requests first: a live one keeps its claim (and
    // its pool slot) even if its issue left the queue; leaving is acted on when it ends.
    runs ??= await github.listRuns(enoughRuns);
    pulls ??= await github.linkedPulls();
    const seen = workerOf(runOfHeld(runs, { n, epoch: record.epoch, grantedAt: record.grantedAt }), pulls.get(n) ?? []);
    const worker: WorkerState = left !== undefined && seen.kind !== "live" ? left : seen;
    const pool = await poolOfClaim(record, issue);
    const span = record.leaseUntil - record.at;
    held.push({ n, ref, record, issue, claim: { id: String(n), epoch: record.epoch, holder: record.holder, leaseUntil: record.leaseUntil, leaseMs: span > 0 ? span : leaseMs, pool, worker } });
  }

  // The one step judges every claim held: land, renew, reclaim, or settle for a human.
  const heldById = new Map(held.map((h) => [h.claim.id, h]));
  const ending = new Set<string>();
  for (const d of decideStep({ now, held: held.map((h) => h.claim), ready: [] }, rules)) {
    if (d.kind === "idle" || d.kind === "claim" || d.kind === "dispatch") continue;
    const h = heldById.get(d.id);
    if (h === undefined) continue;
    if (d.kind === "reclaim") {
      const taken = await store.planReclaim(batch, h.ref);
      if (taken !== undefined) {
        reclaims.push({ n: h.n, holder: taken.holder, epoch: taken.epoch });
        ending.add(d.id);
      }
      continue;
    }
    const token = await store.adopt(h.record.key);
    if (token === undefined || token.epoch !== d.epoch) continue;
    if (d.kind === "renew") {
      if ((await store.planRenew(batch, token, d.leaseMs, d.revive)).ok && d.revive) revived.push(h.n);
      continue;
    }
    if (d.kind === "settle-to-human") {
      if ((await store.planReclaim(batch, h.ref, d.landing.mode.outcome)) === undefined) continue;
    } else {
      // A lapsed claim nobody took back, whose own run ended: revived and landed in one compare-and-swap.
      if (d.revive && !(await store.planRenew(batch, token, h.claim.leaseMs, true)).ok) continue;
      if (!(await store.planRelease(batch, token, d.landing.mode)).ok) continue;
    }
    lands.push({ n: h.n, issue: h.issue, token, landing: d.landing });
    if (d.landing.disposition !== "retry") settled.set(h.n, { ok: d.landing.disposition === "ok" });
    ending.add(d.id);
  }
  for (const h of held) {
    if (ending.has(h.claim.id)) continue;
    const snap = h.issue === undefined ? undefined : await github.snapshot(h.issue, true);
    liveIds.set(h.n, snap?.ok === true ? snap.snapshot.brief.id : undefined);
    inFlight.push({ issue: h.n, title: h.issue?.title ?? `#${h.n}`, pool: h.claim.pool, holder: h.record.holder, epoch: h.record.epoch, leaseUntil: h.record.leaseUntil });
  }

  // The queue: queued issues with a valid snapshot, not held, not settled, not in flight or blocked.
  const openCache = new Map<number, boolean>();
  const { ready, skipped } = await readyCandidates({
    issues,
    github,
    store,
    config,
    live: liveIds,
    settled,
    isOpen: async (n) => {
      if (!openCache.has(n)) openCache.set(n, await github.isOpen(n));
      return openCache.get(n) as boolean;
    },
  });

  // Refill each pool to its size, best first by the live policy: the step picks, counting in-flight
  // work by the pool recorded in each claim; a candidate denied here gives its slot to the next.
  const policy = policies[config.policy];
  const granting: Array<{ c: Candidate; pool: BosunConfig["pools"][string]; poolName: string }> = [];
  const queue: TickReport["queue"][number][] = [];
  const deny = (n: number, reason: DenyReason, detail: string): void => emit({ event: "DENY", item: String(n), holder: deps.holder, reason, detail });
  let remaining: Candidate[] = [];
  for (const poolName of Object.keys(config.pools)) {
    const mine = ready.filter((c) => c.item.pool === poolName).sort((a, b) => policy.compare(a.item, b.item, now));
    queue.push({ pool: poolName, items: mine.map((c) => ({ issue: c.issue.number, title: c.issue.title, band: c.item.band, reason: policy.explain(c.item, now) })) });
    if (config.shadow_policy !== undefined && deps.shadow !== undefined && mine.length > 1) {
      const shadow = policies[config.shadow_policy];
      const shadowTop = [...mine].sort((a, b) => shadow.compare(a.item, b.item, now))[0];
      deps.shadow.ticks++;
      if (shadowTop?.issue.number !== mine[0]?.issue.number) deps.shadow.differing++;
    }
    remaining.push(...mine);
  }
  const busy = new Map<string, number>();
  for (const f of inFlight) busy.set(f.pool, (busy.get(f.pool) ?? 0) + 1);
  for (;;) {
    const byId = new Map(remaining.map((c) => [c.item.id, c]));
    const picks = decideStep({ now, held: [], busy, ready: remaining.map((c) => ({ id: c.item.id, pool: c.item.pool })) }, rules).filter((d) => d.kind === "claim");
    if (picks.length === 0) break;
    for (const d of picks) {
      const c = byId.get(d.id) as Candidate;
      byId.delete(d.id);
      const n = c.issue.number;
      const similar = await deps.claims.screen(c.brief.claim_key, now, granting.map((g) => g.c.brief.claim_key));
      if (similar !== undefined) {
        deny(n, similar.reason, similar.detail);
        continue;
      }
      // The evidence probe: someone is already on it (an open pull request or a branch for it).
      const evidence = await github.evidenceOf(n, (await store.inspect(c.brief.claim_key, now)).epoch === 0);
      if (evidence !== undefined) {
        deps.claims.count("evidence");
        deny(n, "evidence", evidence);
        continue;
      }
      // No claim ref for the item (never claimed, cleaned up, or deleted by a writer): its runs are
      // the only other witness. One still in progress means a worker is on it; and the grant
      // starts above every epoch a run was titled with, so no old run can land the new claim.
      let aboveEpoch = 0;
      if (!claimed.has(n)) {
        runs ??= await github.listRuns(enoughRuns);
        const before = runsOfItem(runs, n);
        if (before.live) {
          deny(n, "held", `a run for #${n} (epoch ${before.maxEpoch}) is still in progress, and no claim covers it`);
          continue;
        }
        aboveEpoch = before.maxEpoch;
      }
      const grant = { pool: d.pool, briefHash: c.hash, snapshotId: c.commentId };
      const planned = await store.planClaim(batch, c.brief.claim_key, deps.holder, Math.max(leaseMs, c.brief.budget.wall_clock * 1000), grant, requeued.has(c.brief.claim_key), aboveEpoch);
      if (!planned.planned) {
        deps.claims.count(planned.reason);
        deny(n, planned.reason, planned.detail);
        continue;
      }
      busy.set(d.pool, (busy.get(d.pool) ?? 0) + 1);
      granting.push({ c, pool: config.pools[d.pool] as BosunConfig["pools"][string], poolName: d.pool });
    }
    remaining = [...byId.values()];
  }

  // One commit, one atomic ref update. Lost to another writer: nothing happened, decide again.
  const written = await store.commitBatch(batch);
  if (!written.ok) return new Lost(written.conflict, written.detail);

  // Cleanups, on their own and best effort: a refusal leaves the ref where it is.
  for (const f of forgets) await store.forget(f.ref, f.sha, now - RECENT_MS).catch(() => false);

  const { reclaimed, landed, dispatched } = await applyTickEffects(deps, written.granted, { reclaims, lands, granting }, inFlight);

  // Idle is the step's verdict: nothing in flight, no ready item left unclaimed, and no queued item
  // waiting (on a blocker, on a snapshot read that failed, on a human): the queue is empty.
  const flying = new Map<string, number>();
  for (const f of inFlight) flying.set(f.pool, (flying.get(f.pool) ?? 0) + 1);
  const left = ready.filter((c) => !dispatched.includes(c.issue.number)).map((c) => ({ id: c.item.id, pool: c.item.pool }));
  const idle = decideStep({ now, held: [], busy: flying, ready: left, waiting: skipped.length }, rules).some((d) => d.kind === "idle");
  if (idle) emit({ event: "IDLE", holder: deps.holder, summary: `landed=${landed.length} skipped=${skipped.length}` });
  return { busy: false, idle, dispatched, landed, reclaimed, revived, inFlight, queue, skipped };
}
