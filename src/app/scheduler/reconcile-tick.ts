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
import type { Disposition, Stop } from "../../core/stop/stop.js";
import type { Landing } from "./land-item.js";
import { stopFromRun } from "../../core/scheduler/stop-from-run.js";
import type { GitHubClaimStore } from "../../adapters/github/github-claim-store.js";
import { applyTickEffects } from "./apply-tick-effects.js";
import { runOf, stillRunning } from "./run-of.js";
import { readyCandidates } from "./ready-candidates.js";
import { landingOf } from "./land-item.js";
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
  return { busy: true, idle: false, dispatched: [], landed: [], reclaimed: [], inFlight: [], queue: [], skipped: [] };
}

/** The tick's batch was not written: nothing happened, decide again from a fresh read. */
class Lost {
  constructor(
    readonly conflict: boolean,
    readonly detail: string,
  ) {}
}

async function decideAndWrite(deps: TickDeps): Promise<TickReport | Lost> {
  const { github, store, config, clock } = deps;
  const labels = config.labels;
  const prefix = config.claims.ref_prefix;
  const leaseMs = config.lease * 1000;
  const emit = journalEmitter(deps.journal, clock);
  const now = clock.now();

  const issues = await github.listQueued(labels.queued);
  const byNumber = new Map(issues.map((i) => [i.number, i]));
  // Only a shortcut: if it fails, each snapshot is read on its own when needed.
  await github.prefetchSnapshots(issues, labels.queued).catch(() => undefined);
  const claims = await store.listClaims();
  // Enough runs are listed when every item in flight in a workflow pool has found its run.
  const heldInQueue: Array<{ n: number; epoch: number }> = [];
  for (const c of claims) {
    const n = issueOfRef(c.ref, prefix);
    const issue = n === undefined ? undefined : byNumber.get(n);
    if (c.record.state !== "held" || n === undefined || issue === undefined) continue;
    const snap = await github.snapshot(issue, true);
    const pool = snap.ok ? config.pools[issueFacts(issue.labels, snap.snapshot.brief, config).pool] : undefined;
    if (pool?.dispatch.kind === "workflow") heldInQueue.push({ n, epoch: c.record.epoch });
  }
  const enoughRuns = (runs: readonly WorkflowRunView[]): boolean => heldInQueue.every((h) => runOf(runs, h.n, h.epoch, github.knownRunId(h.n, h.epoch)) !== undefined);
  const batch = store.newBatch(now);
  let runs: readonly WorkflowRunView[] | undefined;
  let pulls: ReadonlyMap<number, readonly PullLink[]> | undefined;
  const lands: Array<{ n: number; issue: QueueIssue | undefined; token: ClaimToken; landing: Landing }> = [];
  const reclaims: Array<{ n: number; holder: string; epoch: number }> = [];
  const inFlight: InFlightView[] = [];
  const settled = new Set<number>();
  /** Claim keys settled once and approved again since: granted over their settled record. */
  const requeued = new Set<string>();
  const liveIds = new Map<number, string | undefined>();

  for (const { ref, record } of claims) {
    const n = issueOfRef(ref, prefix);
    if (n === undefined) continue;
    let issue = byNumber.get(n);
    if (record.state === "settled") {
      // Queued again with neither `bosun:claimed` (a landing whose labels did not follow keeps it)
      // nor an outcome label: a writer approved it again after the outcome. It may run again.
      const queuedNow = issue;
      if (queuedNow !== undefined && ![labels.claimed, labels.done, labels.needsHuman].some((l) => queuedNow.labels.includes(l))) {
        requeued.add(record.key);
        continue;
      }
      settled.add(n);
      // Long settled and out of the queue: forgotten with this tick's batch, so listings (and an
      // Action run's cold start) carry live and recent claims only. The similarity guard looks back
      // as far (RECENT_MS); a re-queued issue starts again at epoch 1, long after any worker of it.
      if (issue === undefined) await store.planForget(batch, ref, now - RECENT_MS);
      // The claim settled but its labels did not follow (a failed write after the land): the ref
      // is the truth, so the mirror is repaired from it.
      const want = record.outcome?.ok === true ? labels.done : labels.needsHuman;
      if (issue !== undefined && !issue.labels.includes(want)) await github.setLabels(n, [...new Set([...issue.labels.filter((l) => l !== labels.claimed && l !== labels.queued), want])]);
      continue;
    }
    if (record.state !== "held") continue;
    if (record.leaseUntil <= now) {
      const taken = await store.planReclaim(batch, ref);
      if (taken !== undefined) reclaims.push({ n, holder: taken.holder, epoch: taken.epoch });
      continue;
    }
    let stop: Stop | undefined;
    if (issue === undefined) {
      // Not in the listing: read it. Still open and queued, the listing missed it (pages shift while
      // they are read): it is in flight like any other. Otherwise it left the queue while in flight:
      // closed as completed (a merged PR closing it) is done; anything else is refused.
      const current = await github.issueNow(n);
      if (current?.open === true && current.labels.includes(labels.queued)) {
        issue = current;
        byNumber.set(n, current);
      } else stop = current?.completed === true ? { kind: "done", reason: "issue closed as completed" } : { kind: "failed", failure: "refuse", reason: "the issue left the queue (closed or unlabelled) while in flight" };
    }
    if (issue !== undefined) {
      runs ??= await github.listRuns(enoughRuns);
      const run = runOf(runs, n, record.epoch, github.knownRunId(n, record.epoch));
      if (run?.status === "completed") stop = stopFromRun(run.conclusion, run.url);
      if (stop === undefined) {
        pulls ??= await github.linkedPulls();
        const links = pulls.get(n) ?? [];
        if (links.some((p) => p.state === "merged")) stop = { kind: "done", reason: `pull request #${links.find((p) => p.state === "merged")?.number} merged` };
        else if (links.length > 0 && links.every((p) => p.state === "closed")) stop = { kind: "blocked", reason: `pull request #${links[0]?.number} was closed unmerged` };
      }
    }
    const held = await store.adopt(record.key);
    if (stop !== undefined && held !== undefined && held.epoch === record.epoch) {
      const landing = landingOf(deps, held, stop, now);
      if ((await store.planRelease(batch, held, landing.mode)).ok) {
        lands.push({ n, issue, token: held, landing });
        if (landing.disposition !== "retry") settled.add(n);
        continue;
      }
    }
    if (held !== undefined && record.leaseUntil - now < leaseMs / 3 && stillRunning(runOf((runs ??= await github.listRuns(enoughRuns)), n, record.epoch, github.knownRunId(n, record.epoch)), n, (pulls ??= await github.linkedPulls()))) {
      await store.planRenew(batch, held, leaseMs);
    }
    const snap = issue === undefined ? undefined : await github.snapshot(issue, true);
    const pool = issue !== undefined && snap?.ok === true ? issueFacts(issue.labels, snap.snapshot.brief, config).pool : "default";
    liveIds.set(n, snap?.ok === true ? snap.snapshot.brief.id : undefined);
    inFlight.push({ issue: n, title: issue?.title ?? `#${n}`, pool, holder: record.holder, epoch: record.epoch, leaseUntil: record.leaseUntil });
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

  // Refill each pool to its size, best first by the live policy; grants are only planned here.
  const policy = policies[config.policy];
  const granting: Array<{ c: Candidate; pool: BosunConfig["pools"][string]; poolName: string }> = [];
  const queue: TickReport["queue"][number][] = [];
  const deny = (n: number, reason: DenyReason, detail: string): void => emit({ event: "DENY", item: String(n), holder: deps.holder, reason, detail });
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
      const planned = await store.planClaim(batch, c.brief.claim_key, deps.holder, Math.max(leaseMs, c.brief.budget.wall_clock * 1000), requeued.has(c.brief.claim_key));
      if (!planned.planned) {
        deps.claims.count(planned.reason);
        deny(n, planned.reason, planned.detail);
        continue;
      }
      free--;
      granting.push({ c, pool, poolName });
    }
  }

  // One commit, one atomic ref update. Lost to another writer: nothing happened, decide again.
  const written = await store.commitBatch(batch);
  if (!written.ok) return new Lost(written.conflict, written.detail);

  const { reclaimed, landed, dispatched } = await applyTickEffects(deps, written.granted, { reclaims, lands, granting }, inFlight);

  const readyLeft = ready.length - dispatched.length;
  const idle = readyLeft === 0 && inFlight.length === 0;
  if (idle) emit({ event: "IDLE", holder: deps.holder, summary: `landed=${landed.length} skipped=${skipped.length}` });
  return { busy: false, idle, dispatched, landed, reclaimed, inFlight, queue, skipped };
}
