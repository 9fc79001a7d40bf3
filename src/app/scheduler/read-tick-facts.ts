import type { ClaimRecord } from "../../adapters/github/claim-record.js";
import type { HeldClaim, WorkerState } from "../../core/engine/decide-step.js";
import { issueFacts } from "../../core/intake/issue-facts.js";
import type { TickDeps } from "./reconcile-tick.js";
import { runOf, workerOf } from "./run-of.js";
import type { PullLink, QueueIssue, WorkflowRunView } from "./scheduler-github.js";

/** A held claim as the tick read it, with what it needs to act on the step's decision. */
export interface HeldRef {
  readonly n: number;
  readonly ref: string;
  readonly record: ClaimRecord;
  issue: QueueIssue | undefined;
  readonly claim: HeldClaim;
  /** The workflow run of this epoch, when the tick found it: a landing from it reads its `bosun/work` record. */
  readonly run?: WorkflowRunView;
}

/** What a tick read from GitHub and the claim refs, before it decides anything. */
export interface TickFacts {
  /** The queue as listed. */
  readonly issues: readonly QueueIssue[];
  /** Every claim held, with its worker as seen and the pool it counts against. */
  readonly held: readonly HeldRef[];
  /** Issues whose claim settled before this tick, and whether they landed ok (the decisions add this tick's). */
  readonly settled: Map<number, { ok: boolean }>;
  /** Claim keys settled once and proven approved again since: granted over their settled record. */
  readonly requeued: ReadonlySet<string>;
  /** Long-settled claims out of the queue, to clean up after the batch. */
  readonly forgets: ReadonlyArray<{ ref: string; sha: string }>;
  /** Issues that have a claim ref at all (any state). */
  readonly claimed: ReadonlySet<number>;
  /** The workflow runs, listed once per tick at most and only when something needs them. */
  readonly runs: () => Promise<readonly WorkflowRunView[]>;
}

const issueOfRef = (ref: string, prefix: string): number | undefined => {
  const n = Number(ref.slice(prefix.length));
  return ref.startsWith(prefix) && Number.isInteger(n) && n > 0 ? n : undefined;
};

/**
 * The reading half of a tick: the queue, the claims, and for every held claim its worker (from its
 * run and pull requests) — all a decision needs. The one write here repairs the labels of a claim
 * that settled when its mirror did not follow: the ref is the truth.
 */
export async function readTickFacts(deps: TickDeps): Promise<TickFacts> {
  const { github, store, config } = deps;
  const labels = config.labels;
  const prefix = config.claims.ref_prefix;
  const leaseMs = config.lease * 1000;

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
  let listed: readonly WorkflowRunView[] | undefined;
  const runs = async (): Promise<readonly WorkflowRunView[]> => (listed ??= await github.listRuns(enoughRuns));
  let pulls: ReadonlyMap<number, readonly PullLink[]> | undefined;
  const settled = new Map<number, { ok: boolean }>();
  const requeued = new Set<string>();
  const forgets: Array<{ ref: string; sha: string }> = [];
  const held: HeldRef[] = [];
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
    const listedRuns = await runs();
    pulls ??= await github.linkedPulls();
    const run = runOfHeld(listedRuns, { n, epoch: record.epoch, grantedAt: record.grantedAt });
    const seen = workerOf(run, pulls.get(n) ?? []);
    const worker: WorkerState = left !== undefined && seen.kind !== "live" ? left : seen;
    const pool = await poolOfClaim(record, issue);
    const span = record.leaseUntil - record.at;
    held.push({ n, ref, record, issue, claim: { id: String(n), epoch: record.epoch, holder: record.holder, leaseUntil: record.leaseUntil, leaseMs: span > 0 ? span : leaseMs, pool, worker }, ...(run === undefined ? {} : { run }) });
  }
  return { issues, held, settled, requeued, forgets, claimed, runs };
}
