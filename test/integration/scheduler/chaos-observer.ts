/**
 * Watches the fake GitHub while the chaos simulation runs, and judges the run afterwards.
 *
 * Ordering comes from the fake itself: it records each request right after its handler changed the
 * state, synchronously, so a hook on `accounting.record` sees every claim-ref move and every new
 * workflow run at the exact point in the request log where it happened. Wall or manual time would
 * not do: many requests share one millisecond of the manual clock.
 */
import type { FakeGitHub } from "../../fake-github/create-fake-github.js";
import type { RepoState } from "../../fake-github/state.js";
import { parseClaimCommit, previousOf, recordFor } from "../../../src/adapters/github/claim-record.js";
import type { ClaimRecord } from "../../../src/adapters/github/claim-record.js";

/** Requests that can move a claim ref: the REST ref writes, and GraphQL (a batch's `updateRefs`). */
const REF_WRITE = /^((POST|PATCH) \/repos\/\{owner\}\/\{repo\}\/git\/refs|POST \/graphql$)/;
const DISPATCH = "POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches";

export interface RunSeen {
  readonly id: number;
  readonly item: number;
  readonly epoch: number;
  /** Position in the request log of the dispatch that created it. */
  readonly created: number;
  /** Position when the simulation completed it; undefined while it runs (or forever: a dead worker). */
  completed?: number;
  /** Manual-clock time of the completion. */
  completedAt?: number;
  conclusion?: string;
}

export interface Judgement {
  /** Runs dispatched while another run of the item was in progress for a claim that was still live (or of the same epoch). */
  readonly doubleDispatch: number;
  /** Runs dispatched when no live claim of their epoch was on the item's ref. */
  readonly unfencedDispatch: number;
  /** Claims granted that never got a run while they were live, and the longest such claim (manual-clock ms). */
  readonly orphanClaims: number;
  readonly longestOrphanMs: number;
  /** Runs that finished with success inside their live claim and before its lease ran out, yet the item was dispatched again instead of landing. */
  readonly discardedSuccesses: number;
  /** Grants that made a pool hold more live claims than its size (from the claim chains, across all replicas). */
  readonly poolOverfill: number;
  /** The most live claims any pool held at once. */
  readonly maxPoolLive: number;
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

  constructor(
    private readonly fake: FakeGitHub,
    private readonly repoName: string,
    private readonly prefix: string,
    private readonly now: () => number,
  ) {
    const original = fake.accounting.record.bind(fake.accounting);
    fake.accounting.record = (entry) => {
      original(entry);
      this.seq++;
      if (entry.route !== null && REF_WRITE.test(entry.route)) this.scanRefs();
      if (entry.route === DISPATCH) this.scanRuns();
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
      if (this.itemOf(ref) === undefined || this.lastHead.get(ref) === sha) continue;
      this.lastHead.set(ref, sha);
      if (!this.headSince.has(sha)) this.headSince.set(sha, { seq: this.seq, at: this.now() });
    }
  }

  private scanRuns(): void {
    for (const run of this.repo.workflowRuns.values()) {
      if (this.runs.has(run.id)) continue;
      this.runs.set(run.id, { id: run.id, item: Number(run.inputs["item"]), epoch: Number(run.inputs["epoch"]), created: this.seq });
    }
  }

  /** Completes a run on the fake (as its worker finishing would) and notes when. */
  complete(id: number, conclusion: "success" | "failure" | "cancelled" | "timed_out"): void {
    this.fake.completeWorkflowRun(this.repoName, id, conclusion);
    this.seq++;
    const seen = this.runs.get(id);
    if (seen !== undefined) {
      seen.completed = this.seq;
      seen.completedAt = this.now();
      seen.conclusion = conclusion;
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
   * Judges every item from its claim chain and its runs. An epoch's claim is live from the commit
   * that granted it until the first later head that is another epoch or not `held` (a release, a
   * settle, a reclaim, or a takeover of an expired lease). A stale run still "in progress" because
   * its worker died is fine once its epoch's claim has ended: the new epoch fences it out.
   */
  judge(items: readonly number[], pools?: { readonly of: (item: number) => string; readonly size: number }): Judgement {
    const spans = new Map<string, Array<{ from: number; to: number }>>();
    const details: string[] = [];
    let doubleDispatch = 0;
    let unfencedDispatch = 0;
    let orphanClaims = 0;
    let longestOrphanMs = 0;
    let discardedSuccesses = 0;
    const end = { seq: Number.POSITIVE_INFINITY, at: this.now() };
    const byItem = new Map<number, RunSeen[]>();
    for (const run of this.runs.values()) byItem.set(run.item, [...(byItem.get(run.item) ?? []), run]);
    for (const item of items) {
      const chain = this.chain(item);
      const missing = chain.filter((c) => c.since === undefined).length;
      if (missing > 0) details.push(`#${item}: ${missing} claim commit(s) became head unobserved`);
      const live = new Map<number, { from: Moment; to: Moment }>();
      chain.forEach((c, i) => {
        if (c.record.state !== "held" || live.has(c.record.epoch) || c.since === undefined) return;
        const ender = chain.slice(i + 1).find((later) => later.record.epoch !== c.record.epoch || later.record.state !== "held");
        live.set(c.record.epoch, { from: c.since, to: ender?.since ?? end });
      });
      const runs = (byItem.get(item) ?? []).sort((a, b) => a.created - b.created);
      if (pools !== undefined) for (const span of live.values()) spans.set(pools.of(item), [...(spans.get(pools.of(item)) ?? []), { from: span.from.seq, to: span.to.seq }]);
      for (const [epoch, span] of live) {
        if (runs.some((r) => r.epoch === epoch && r.created >= span.from.seq && r.created < span.to.seq)) continue;
        orphanClaims++;
        longestOrphanMs = Math.max(longestOrphanMs, span.to.at - span.from.at);
      }
      runs.forEach((run, i) => {
        const own = live.get(run.epoch);
        if (own === undefined || run.created < own.from.seq || run.created >= own.to.seq) {
          unfencedDispatch++;
          details.push(`#${item}: run ${run.id} (epoch ${run.epoch}) dispatched without a live claim of its epoch`);
        }
        for (const earlier of runs.slice(0, i)) {
          const stillRunning = earlier.completed === undefined || earlier.completed > run.created;
          const earlierLive = live.get(earlier.epoch);
          const claimLive = earlierLive !== undefined && earlierLive.to.seq > run.created;
          if (stillRunning && (claimLive || earlier.epoch === run.epoch)) {
            doubleDispatch++;
            details.push(`#${item}: run ${run.id} (epoch ${run.epoch}) dispatched while run ${earlier.id} (epoch ${earlier.epoch}) was in progress on a live claim`);
          }
        }
        // A success inside its live claim and lease should have landed; a later epoch means it was thrown away.
        const done = run.completed;
        const lease = done === undefined ? 0 : Math.max(0, ...chain.filter((c) => c.record.epoch === run.epoch && c.record.state === "held" && (c.since?.seq ?? Infinity) < done).map((c) => c.record.leaseUntil));
        const inTime = run.conclusion === "success" && done !== undefined && done < (own?.to.seq ?? 0) && (run.completedAt ?? Infinity) < lease;
        if (inTime && runs.some((later) => later.epoch > run.epoch)) discardedSuccesses++;
      });
    }
    // Pool bounds: sweep each pool's live spans (an end and a start at one moment — one batch that
    // reclaims and grants — do not overlap).
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
          details.push(`pool ${pool}: ${live} live claims at log position ${e.at} (size ${pools.size})`);
        }
      }
    }
    return { doubleDispatch, unfencedDispatch, orphanClaims, longestOrphanMs, discardedSuccesses, poolOverfill, maxPoolLive, details };
  }
}
