import type { Brief } from "../../core/brief/brief.js";
import type { BosunConfig } from "../../core/config/bosun-config.js";
import type { ClaimStore } from "../../core/claims/claim-store.js";
import type { Clock } from "../../core/engine/clock.js";
import { issueFacts } from "../../core/intake/issue-facts.js";
import type { Journal } from "../../core/journal/journal-event.js";
import { journalEmitter } from "../../core/journal/journal-emitter.js";
import type { QueueItem } from "../../core/queue/queue-item.js";
import { policies } from "../../core/queue/queue-policy.js";
import type { Disposition, Stop } from "../../core/stop/stop.js";
import { runTitle, stopFromRun } from "../../core/scheduler/stop-from-run.js";
import type { GitHubClaimStore } from "../../adapters/github/github-claim-store.js";
import { dispatchItem } from "./dispatch-item.js";
import { readyCandidates } from "./ready-candidates.js";
import { landItem } from "./land-item.js";
import type { PullLink, QueueIssue, SchedulerGitHub, WorkflowRunView } from "./scheduler-github.js";

export interface TickDeps {
  readonly github: SchedulerGitHub;
  /** The raw store: listing claims and adopting them for landing. */
  readonly store: GitHubClaimStore;
  /** The store behind the similarity guard: every new grant goes through it. */
  readonly claims: ClaimStore;
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
  /** Another replica holds the tick lock: this tick changed nothing. */
  readonly busy: boolean;
  readonly idle: boolean;
  readonly dispatched: readonly number[];
  readonly landed: ReadonlyArray<{ issue: number; disposition: Disposition; summary: string }>;
  readonly reclaimed: readonly number[];
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
 * Webhooks only trigger ticks, so a lost, repeated or reordered delivery changes nothing; every
 * grant is a compare-and-swap on the item's claim ref, so replicas ticking at once cannot both
 * dispatch one item.
 */
export function reconcileTick(deps: TickDeps): Promise<TickReport> {
  // Ticks of one holder run one after another: the tick lock is a claim, and a holder re-claiming
  // its own live claim is granted again, so it cannot keep a holder's own ticks apart.
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

async function tickOnce(deps: TickDeps): Promise<TickReport> {
  const { store, clock } = deps;
  // First look without the lock: a tick with nothing to do (the common case: nothing finished,
  // nothing expired, no free slot) writes nothing and costs only conditional reads.
  try {
    return await lockedTick(deps, true);
  } catch (err) {
    if (err !== NEEDS_LOCK) throw err;
  }
  // One tick at a time per repository, across replicas and Action runs: pools stay bounded and
  // replicas do not spend requests on the same work. The lock is a claim like any other, on a ref
  // outside the claims' prefix so that moving it does not change every claim listing.
  store.bind(TICK_LOCK_KEY, TICK_LOCK_REF);
  const lock = await store.claim(TICK_LOCK_KEY, deps.holder, TICK_LOCK_MS, clock.now());
  if (!lock.granted) return { busy: true, idle: false, dispatched: [], landed: [], reclaimed: [], inFlight: [], queue: [], skipped: [] };
  try {
    return await lockedTick(deps, false);
  } finally {
    // Hand the lock back at once, so a replica whose webhook found it busy can tick now; a tick
    // that dies keeps it only until its lease ends.
    await store.release(lock.token, { kind: "retry", notBefore: clock.now() }, clock.now()).catch(() => undefined);
  }
}

/** Thrown by a look-only pass at its first write: the tick has work and must take the lock. */
const NEEDS_LOCK = Symbol("needs the tick lock");

async function lockedTick(deps: TickDeps, lookOnly: boolean): Promise<TickReport> {
  const { github, store, config, clock } = deps;
  /** Every write goes through here: a look-only pass stops at the first one. */
  const write = (): void => {
    if (lookOnly) throw NEEDS_LOCK;
  };
  const labels = config.labels;
  const prefix = config.claims.ref_prefix;
  const leaseMs = config.lease * 1000;
  const emit = journalEmitter(deps.journal, clock);

  const issues = await github.listQueued(labels.queued);
  const byNumber = new Map(issues.map((i) => [i.number, i]));
  const claims = await store.listClaims();
  let runs: readonly WorkflowRunView[] | undefined;
  let pulls: ReadonlyMap<number, readonly PullLink[]> | undefined;
  const landed: Array<{ issue: number; disposition: Disposition; summary: string }> = [];
  const reclaimed: number[] = [];
  const inFlight: InFlightView[] = [];
  const settled = new Set<number>();
  const live = new Set<number>();
  const liveIds = new Map<number, string | undefined>();

  for (const { ref, record } of claims) {
    const n = issueOfRef(ref, prefix);
    if (n === undefined) continue;
    const issue = byNumber.get(n);
    if (record.state === "settled") {
      settled.add(n);
      // The claim settled but its labels did not follow (a failed write after the land): the ref
      // is the truth, so the mirror is repaired from it.
      const want = record.outcome?.ok === true ? labels.done : labels.needsHuman;
      if (issue !== undefined && !issue.labels.includes(want)) {
        write();
        await github.setLabels(n, [...new Set([...issue.labels.filter((l) => l !== labels.claimed && l !== labels.queued), want])]);
      }
      continue;
    }
    if (record.state !== "held") continue;
    const now = clock.now();
    let stop: Stop | undefined;
    if (issue === undefined) {
      // It left the queue while in flight: closed as completed (a merged PR closing it) is done.
      stop = (await github.closedAsCompleted(n)) ? { kind: "done", reason: "issue closed as completed" } : { kind: "failed", failure: "refuse", reason: "the issue left the queue (closed or unlabelled) while in flight" };
    } else {
      runs ??= await github.listRuns();
      const run = runs.find((r) => r.displayTitle === runTitle(String(n), record.epoch));
      if (run?.status === "completed") stop = stopFromRun(run.conclusion, run.url);
      if (stop === undefined) {
        pulls ??= await github.linkedPulls();
        const links = pulls.get(n) ?? [];
        if (links.some((p) => p.state === "merged")) stop = { kind: "done", reason: `pull request #${links.find((p) => p.state === "merged")?.number} merged` };
        else if (links.length > 0 && links.every((p) => p.state === "closed")) stop = { kind: "blocked", reason: `pull request #${links[0]?.number} was closed unmerged` };
      }
    }
    if (stop !== undefined && record.leaseUntil > now) {
      write();
      const token = await store.adopt(record.key);
      if (token !== undefined && token.epoch === record.epoch) {
        const result = await landItem(deps, n, issue, token, stop);
        if (result !== undefined) {
          landed.push({ issue: n, ...result });
          if (result.disposition !== "retry") settled.add(n);
        }
        continue;
      }
    }
    if (record.leaseUntil <= now) {
      write(); // reclaimed below, by whichever replica gets there first
      continue;
    }
    live.add(n);
    if (record.leaseUntil - now < leaseMs / 3 && (await stillRunning(n, record.epoch, (runs ??= await github.listRuns()), (pulls ??= await github.linkedPulls())))) {
      write();
      const token = await store.adopt(record.key);
      if (token !== undefined) await store.renew(token, leaseMs, now);
    }
    const snap = issue === undefined ? undefined : await github.snapshot(issue, true);
    const pool = issue !== undefined && snap?.ok === true ? issueFacts(issue.labels, snap.snapshot.brief, config).pool : "default";
    liveIds.set(n, snap?.ok === true ? snap.snapshot.brief.id : undefined);
    inFlight.push({ issue: n, title: issue?.title ?? `#${n}`, pool, holder: record.holder, epoch: record.epoch, leaseUntil: record.leaseUntil });
  }

  for (const view of await store.reclaimStale(clock.now())) {
    const n = issueOfRef(store.refOf(view.key), prefix);
    if (n === undefined) continue;
    reclaimed.push(n);
    emit({ event: "RECLAIM", item: String(n), from: view.holder, epoch: view.epoch });
    await github.removeLabel(n, labels.claimed);
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

  // Refill each pool to its size, best first by the live policy.
  const now = clock.now();
  const policy = policies[config.policy];
  const dispatched: number[] = [];
  const queue: TickReport["queue"][number][] = [];
  for (const [poolName, pool] of Object.entries(config.pools)) {
    const mine = ready.filter((c) => c.item.pool === poolName).sort((a, b) => policy.compare(a.item, b.item, now));
    queue.push({ pool: poolName, items: mine.map((c) => ({ issue: c.issue.number, title: c.issue.title, band: c.item.band, reason: policy.explain(c.item, now) })) });
    if (config.shadow_policy !== undefined && deps.shadow !== undefined && mine.length > 1) {
      const shadow = policies[config.shadow_policy];
      const shadowTop = [...mine].sort((a, b) => shadow.compare(a.item, b.item, now))[0];
      deps.shadow.ticks++;
      if (shadowTop?.issue.number !== mine[0]?.issue.number) deps.shadow.differing++;
    }
    let free = pool.size - inFlight.filter((f) => f.pool === poolName).length;
    for (const c of mine) {
      if (free <= 0) break;
      write();
      const claim = await deps.claims.claim(c.brief.claim_key, deps.holder, Math.max(leaseMs, c.brief.budget.wall_clock * 1000), clock.now());
      if (!claim.granted) {
        emit({ event: "DENY", item: String(c.issue.number), holder: deps.holder, reason: claim.reason, detail: claim.detail });
        continue;
      }
      free--;
      try {
        await dispatchItem(deps, c, claim.token, pool.dispatch, pool.tier);
      } catch (err) {
        // Nothing was started (or we cannot tell): give the claim back for a retry with backoff
        // rather than hold an item no worker has.
        const reason = `dispatch failed: ${err instanceof Error ? err.message : String(err)}`;
        const result = await landItem(deps, c.issue.number, c.issue, claim.token, { kind: "failed", failure: "retry", reason });
        if (result !== undefined) landed.push({ issue: c.issue.number, ...result });
        continue;
      }
      dispatched.push(c.issue.number);
      inFlight.push({ issue: c.issue.number, title: c.issue.title, pool: poolName, holder: deps.holder, epoch: claim.token.epoch, leaseUntil: claim.token.expiresAt });
    }
  }

  const readyLeft = ready.length - dispatched.length;
  const idle = readyLeft === 0 && inFlight.length === 0;
  if (idle) emit({ event: "IDLE", holder: deps.holder, summary: `landed=${landed.length} skipped=${skipped.length}` });
  return { busy: false, idle, dispatched, landed, reclaimed, inFlight, queue, skipped };
}

/** The claim key of the per-repository tick lock, and how long a tick may hold it. */
export const TICK_LOCK_KEY = "tick:scheduler";
export const TICK_LOCK_MS = 30_000;
export const TICK_LOCK_REF = "refs/bosun/tick-lock";

/**
 * Whether an in-flight item shows signs of life worth a lease renewal: its workflow run for this
 * epoch has not finished, or a pull request for it is open. A claim whose dispatch never started
 * anything is left to expire, so the item runs again instead of being held forever.
 */
function stillRunning(n: number, epoch: number, runs: readonly WorkflowRunView[], pulls: ReadonlyMap<number, readonly PullLink[]>): boolean {
  const run = runs.find((r) => r.displayTitle === runTitle(String(n), epoch));
  if (run !== undefined) return run.status !== "completed";
  return (pulls.get(n) ?? []).some((p) => p.state === "open");
}

