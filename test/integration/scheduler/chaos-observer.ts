/**
 * Watches the fake GitHub while the chaos simulation runs, and judges the run afterwards.
 *
 * Ordering comes from the fake itself: it records each request right after its handler changed the
 * state, synchronously, so a hook on `accounting.record` sees every claim-ref move and every new
 * workflow run, cancel and label write at the exact point in the request log where it happened.
 * Wall or manual time would not do: many requests share one millisecond of the manual clock.
 *
 * What it judges by is GitHub's side only — runs in progress, `bosun:done` labels, claim heads as
 * the fake holds them — plus the simulation's record of which workers still work. It never asks a
 * replica what it believes.
 */
import type { FakeGitHub } from "../../fake-github/create-fake-github.js";
import type { RepoState } from "../../fake-github/state.js";
import { parseClaimCommit, previousOf, recordFor } from "../../../src/adapters/github/claim-record.js";
import type { ClaimRecord } from "../../../src/adapters/github/claim-record.js";

/** Requests that can move a claim ref: the REST ref writes, and GraphQL (a batch's `updateRefs`). */
const REF_WRITE = /^((POST|PATCH) \/repos\/\{owner\}\/\{repo\}\/git\/refs|POST \/graphql$)/;
const DISPATCH = "POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches";
const CANCEL = "POST /repos/{owner}/{repo}/actions/runs/{run_id}/cancel";
/** Requests that can change an issue's labels (add, set, remove, or an issue update). */
const LABEL_WRITE = /^((POST|PUT|DELETE) \/repos\/\{owner\}\/\{repo\}\/issues\/\{issue_number\}\/labels|PATCH \/repos\/\{owner\}\/\{repo\}\/issues\/\{issue_number\}$)/;

export interface RunSeen {
  readonly id: number;
  readonly item: number;
  readonly epoch: number;
  /** Position in the request log of the dispatch that created it. */
  readonly created: number;
  /** Position when GitHub says it ended (completed, cancelled, or a lost runner failed); undefined while in progress. */
  completed?: number;
  /** Manual-clock time of the completion. */
  completedAt?: number;
  conclusion?: string;
  /** Position when its worker stopped working (finished, died, or was killed by a cancel): the simulation's record. */
  workerEnded?: number;
}

export interface Judgement {
  /**
   * Runs dispatched while another run of the same item was in progress on GitHub, or after the
   * item landed done (its `bosun:done` label appeared, or its claim settled ok). From the fake's
   * runs, label writes and ref heads at each point of the request log; never from claim liveness.
   */
  readonly doubleDispatch: number;
  /** Of those, the ones where the earlier run's worker was still alive: two workers on one item. */
  readonly twoLiveWorkers: number;
  /** Runs dispatched when no live claim of their epoch was on the item's ref. */
  readonly unfencedDispatch: number;
  /** Claims granted that never got a run while they were live, and the longest such claim (manual-clock ms). */
  readonly orphanClaims: number;
  readonly longestOrphanMs: number;
  /** Runs that finished with success inside their live claim and before its lease ran out, yet the item was dispatched again instead of landing. */
  readonly discardedSuccesses: number;
  /** Dispatches that made a pool have more runs in progress on GitHub than its size (pools from the simulation's own record). */
  readonly poolOverfill: number;
  /** The most runs in progress any pool had at once. */
  readonly maxPoolLive: number;
  /** Items labelled `bosun:done` at the end though no run of theirs succeeded. */
  readonly falseDone: number;
  readonly details: string[];
}

/** A log position plus the manual-clock time it happened at. */
interface Moment {
  readonly seq: number;
  readonly at: number;
}

export class ChaosObserver {
  private seq = 0;
  /** Claim commit sha → when it first became its ref's head. */
  private readonly headSince = new Map<string, Moment>();
  private readonly lastHead = new Map<string, string>();
  readonly runs = new Map<number, RunSeen>();
  /** Item → the first log position at which it had landed done (label or settled-ok claim head). */
  readonly doneAt = new Map<number, number>();

  constructor(
    private readonly fake: FakeGitHub,
    private readonly repoName: string,
    private readonly prefix: string,
    private readonly now: () => number,
    private readonly doneLabel = "bosun:done",
    /** Told when a cancel ended a run on GitHub, so the simulation kills its worker. */
    private readonly onCancelled: (runId: number) => void = () => undefined,
  ) {
    const original = fake.accounting.record.bind(fake.accounting);
    fake.accounting.record = (entry) => {
      original(entry);
      this.seq++;
      if (entry.route === null) return;
      if (REF_WRITE.test(entry.route)) this.scanRefs();
      if (entry.route === DISPATCH) this.scanRuns();
      if (entry.route === CANCEL) this.scanEnded();
      if (LABEL_WRITE.test(entry.route)) this.scanDone(Number(/\/issues\/(\d+)/.exec(entry.path)?.[1]));
    };
  }

  private get repo(): RepoState {
    return this.fake.repo(this.repoName);
  }

  /** The item a claim ref belongs to; undefined for the tick lock and anything else. */
  itemOf(ref: string): number | undefined {
    if (!ref.startsWith(this.prefix)) return undefined;
    const n = Number(ref.slice(this.prefix.length));
    return Number.isInteger(n) && n > 0 ? n : undefined;
  }

  private scanRefs(): void {
    for (const [ref, sha] of this.repo.refs) {
      const item = this.itemOf(ref);
      if (item === undefined || this.lastHead.get(ref) === sha) continue;
      this.lastHead.set(ref, sha);
      if (!this.headSince.has(sha)) this.headSince.set(sha, { seq: this.seq, at: this.now() });
      const record = this.claimNow(item);
      if (record?.state === "settled" && record.outcome?.ok === true && !this.doneAt.has(item)) this.doneAt.set(item, this.seq);
    }
  }

  private scanRuns(): void {
    for (const run of this.repo.workflowRuns.values()) {
      if (this.runs.has(run.id)) continue;
      this.runs.set(run.id, { id: run.id, item: Number(run.inputs["item"]), epoch: Number(run.inputs["epoch"]), created: this.seq });
    }
  }

  /** Runs a cancel ended on GitHub: they end here, and so do their workers. */
  private scanEnded(): void {
    for (const seen of this.runs.values()) {
      const run = this.repo.workflowRuns.get(seen.id);
      if (seen.completed !== undefined || run?.status !== "completed") continue;
      seen.completed = this.seq;
      seen.completedAt = this.now();
      seen.conclusion = run.conclusion ?? "";
      if (seen.workerEnded === undefined) {
        seen.workerEnded = this.seq;
        this.onCancelled(seen.id);
      }
    }
  }

  private scanDone(item: number): void {
    if (!Number.isInteger(item) || this.doneAt.has(item)) return;
    if (this.repo.issues.get(item)?.labels.includes(this.doneLabel) === true) this.doneAt.set(item, this.seq);
  }

  /** The simulation's record: this run's worker stopped (it died, or finished its work) now. */
  workerStopped(id: number): void {
    const seen = this.runs.get(id);
    if (seen !== undefined && seen.workerEnded === undefined) seen.workerEnded = this.seq;
  }

  /** Whether a run is in progress on GitHub now (dispatched, not ended). */
  inProgress(id: number): boolean {
    return this.runs.get(id)?.completed === undefined;
  }

  /** Completes a run on the fake (its worker finishing, or GitHub failing a run whose runner was lost) and notes when. */
  complete(id: number, conclusion: "success" | "failure" | "cancelled" | "timed_out"): void {
    this.fake.completeWorkflowRun(this.repoName, id, conclusion);
    this.seq++;
    const seen = this.runs.get(id);
    if (seen !== undefined) {
      seen.completed = this.seq;
      seen.completedAt = this.now();
      seen.conclusion = conclusion;
      seen.workerEnded ??= this.seq;
    }
  }

  /** The item's claim record now, read straight from the fake's ref and commit. */
  claimNow(item: number): ClaimRecord | undefined {
    const ref = `${this.prefix}${item}`;
    const sha = this.repo.refs.get(ref);
    return sha === undefined ? undefined : recordFor(parseClaimCommit(this.repo.commits.get(sha)?.message ?? ""), ref);
  }

  /** The item's claim chain, oldest first: every commit its ref pointed at, with when it became the head. */
  chain(item: number): Array<{ record: ClaimRecord; since: Moment | undefined }> {
    const out: Array<{ record: ClaimRecord; since: Moment | undefined }> = [];
    const ref = `${this.prefix}${item}`;
    // A long-settled item's ref may have been deleted since: its last head seen still has its chain.
    let sha = this.repo.refs.get(ref) ?? this.lastHead.get(ref);
    while (sha !== undefined) {
      const commit = this.repo.commits.get(sha);
      const parsed = parseClaimCommit(commit?.message ?? "");
      const record = recordFor(parsed, ref);
      if (commit === undefined || record === undefined) break;
      out.push({ record, since: this.headSince.get(sha) });
      // A batch commit has a parent per ref it moved: the item's own previous head is the one it names.
      sha = previousOf(parsed, ref, commit.parents);
    }
    return out.reverse();
  }

  /**
   * Judges every item. Double dispatch and pool bounds come from GitHub's side only: the runs the
   * fake recorded (when each was dispatched and ended, by log position), when the item first had
   * `bosun:done` or a settled-ok claim head, and the simulation's record of which workers lived.
   * The claim chains are used only for the claim-side figures (unfenced dispatch, orphan claims,
   * discarded successes): an epoch's claim is live from the commit that granted it until the first
   * later head that is another epoch or not `held`.
   */
  judge(items: readonly number[], pools?: { readonly of: (item: number) => string; readonly size: number }): Judgement {
    const details: string[] = [];
    let doubleDispatch = 0;
    let twoLiveWorkers = 0;
    let unfencedDispatch = 0;
    let orphanClaims = 0;
    let longestOrphanMs = 0;
    let discardedSuccesses = 0;
    let falseDone = 0;
    const end = { seq: Number.POSITIVE_INFINITY, at: this.now() };
    const byItem = new Map<number, RunSeen[]>();
    for (const run of this.runs.values()) byItem.set(run.item, [...(byItem.get(run.item) ?? []), run]);
    const spans = new Map<string, Array<{ from: number; to: number; run: number }>>();
    for (const item of items) {
      const runs = (byItem.get(item) ?? []).sort((a, b) => a.created - b.created);
      // GitHub's side: runs in progress at once, and dispatches after a done landing.
      const doneAt = this.doneAt.get(item);
      runs.forEach((run, i) => {
        if (pools !== undefined) spans.set(pools.of(item), [...(spans.get(pools.of(item)) ?? []), { from: run.created, to: run.completed ?? Number.POSITIVE_INFINITY, run: run.id }]);
        const overlapping = runs.slice(0, i).filter((earlier) => earlier.completed === undefined || earlier.completed > run.created);
        if (overlapping.length > 0) {
          doubleDispatch++;
          const live = overlapping.filter((e) => e.workerEnded === undefined || e.workerEnded > run.created);
          if (live.length > 0) twoLiveWorkers++;
          details.push(`#${item}: run ${run.id} (epoch ${run.epoch}) dispatched while run ${overlapping.map((e) => `${e.id} (epoch ${e.epoch}${live.includes(e) ? ", worker alive" : ", worker dead"})`).join(", ")} was in progress on GitHub`);
        } else if (doneAt !== undefined && run.created > doneAt) {
          doubleDispatch++;
          details.push(`#${item}: run ${run.id} (epoch ${run.epoch}) dispatched after the item landed done (log position ${doneAt})`);
        }
      });
      const labels = this.repo.issues.get(item)?.labels ?? [];
      if (labels.includes(this.doneLabel) && !runs.some((r) => r.conclusion === "success")) {
        falseDone++;
        details.push(`#${item}: labelled ${this.doneLabel} though no run of it succeeded`);
      }

      // Bosun's side, as recorded on GitHub (the claim chain): fencing and orphans.
      const chain = this.chain(item);
      const missing = chain.filter((c) => c.since === undefined).length;
      if (missing > 0) details.push(`#${item}: ${missing} claim commit(s) became head unobserved`);
      const live = new Map<number, { from: Moment; to: Moment }>();
      chain.forEach((c, i) => {
        if (c.record.state !== "held" || live.has(c.record.epoch) || c.since === undefined) return;
        const ender = chain.slice(i + 1).find((later) => later.record.epoch !== c.record.epoch || later.record.state !== "held");
        live.set(c.record.epoch, { from: c.since, to: ender?.since ?? end });
      });
      for (const [epoch, span] of live) {
        if (runs.some((r) => r.epoch === epoch && r.created >= span.from.seq && r.created < span.to.seq)) continue;
        orphanClaims++;
        longestOrphanMs = Math.max(longestOrphanMs, span.to.at - span.from.at);
      }
      for (const run of runs) {
        const own = live.get(run.epoch);
        if (own === undefined || run.created < own.from.seq || run.created >= own.to.seq) {
          unfencedDispatch++;
          details.push(`#${item}: run ${run.id} (epoch ${run.epoch}) dispatched without a live claim of its epoch`);
        }
        // A success inside its live claim and lease should have landed; a later epoch means it was thrown away.
        const done = run.completed;
        const lease = done === undefined ? 0 : Math.max(0, ...chain.filter((c) => c.record.epoch === run.epoch && c.record.state === "held" && (c.since?.seq ?? Infinity) < done).map((c) => c.record.leaseUntil));
        const inTime = run.conclusion === "success" && done !== undefined && done < (own?.to.seq ?? 0) && (run.completedAt ?? Infinity) < lease;
        if (inTime && runs.some((later) => later.epoch > run.epoch)) discardedSuccesses++;
      }
    }
    // Pool bounds from runs in progress on GitHub (an end and a start at one log position do not overlap).
    let poolOverfill = 0;
    let maxPoolLive = 0;
    for (const [pool, list] of spans) {
      const events = list.flatMap((s) => [{ at: s.from, d: 1 }, { at: s.to, d: -1 }]).sort((a, b) => a.at - b.at || a.d - b.d);
      let live = 0;
      for (const e of events) {
        live += e.d;
        maxPoolLive = Math.max(maxPoolLive, live);
        if (e.d > 0 && pools !== undefined && live > pools.size) {
          poolOverfill++;
          details.push(`pool ${pool}: ${live} runs in progress at log position ${e.at} (size ${pools.size})`);
        }
      }
    }
    return { doubleDispatch, twoLiveWorkers, unfencedDispatch, orphanClaims, longestOrphanMs, discardedSuccesses, poolOverfill, maxPoolLive, falseDone, details };
  }
}
