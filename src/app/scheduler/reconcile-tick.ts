import type { Brief } from "../../core/brief/brief.js";
import type { BosunConfig } from "../../core/config/bosun-config.js";
import { RECENT_MS, type GuardedClaimStore } from "../../core/claims/guarded-claim-store.js";
import type { Clock } from "../../core/engine/clock.js";
import type { Journal } from "../../core/journal/journal-event.js";
import { journalEmitter } from "../../core/journal/journal-emitter.js";
import type { QueueItem } from "../../core/queue/queue-item.js";
import type { Disposition } from "../../core/stop/stop.js";
import type { GitHubClaimStore } from "../../adapters/github/github-claim-store.js";
import { decideStep } from "../../core/engine/decide-step.js";
import { stepOptionsOf } from "./step-options-of.js";
import type { WorkRecordTally } from "./work-cost-of.js";
import { applyTickEffects } from "./apply-tick-effects.js";
import { planGrants } from "./plan-grants.js";
import { planHeldClaims } from "./plan-held-claims.js";
import { readTickFacts } from "./read-tick-facts.js";
import { readyCandidates } from "./ready-candidates.js";
import type { QueueIssue, SchedulerGitHub } from "./scheduler-github.js";

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
  /** What the `bosun/work` records read said, kept across ticks by the caller for the dashboard. */
  readonly workRecords?: WorkRecordTally;
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
  /** When this epoch was granted (the claim record's), so only a run created after it speaks for it. */
  readonly grantedAt?: number;
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

/** One attempt: read the facts, plan every claim change into one batch, write it, then act on it. */
async function decideAndWrite(deps: TickDeps): Promise<TickReport | Lost> {
  const { github, store, config, clock } = deps;
  const emit = journalEmitter(deps.journal, clock);
  const now = clock.now();
  const rules = stepOptionsOf(config);

  const facts = await readTickFacts(deps);
  const { issues, settled, forgets } = facts;
  const batch = store.newBatch(now);
  const { reclaims, lands, revived, inFlight, liveIds } = await planHeldClaims(deps, batch, facts, now, rules);

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

  const { granting, queue } = await planGrants(deps, batch, { ready, inFlight, facts }, now, rules, emit);

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
