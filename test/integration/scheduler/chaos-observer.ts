/**
 * Watches the fake GitHub while the chaos run plays, and judges it afterwards from GitHub's side
 * only: the workflow runs the fake recorded (who dispatched them, for which item and epoch, when
 * each started and ended), the claim refs' heads as the fake held them, and the items' issues
 * (labels, closed as completed) and pull requests. It never asks a replica what it believes.
 *
 * Ordering comes from the fake's request log: a hook on `accounting.record` sees each request
 * right after its handler changed the state, so every new run, ref move and label write is placed
 * at its exact position. The manual clock would not do: many requests share one millisecond.
 */
import type { FakeGitHub } from "../../fake-github/create-fake-github.js";
import type { RepoState } from "../../fake-github/state.js";
import { parseClaimMessage } from "../../../src/core/claims/claim-record.js";

export interface RunSeen {
  readonly id: number;
  readonly item: number;
  readonly epoch: number;
  readonly actor: string;
  /** Log position of the request that created it. */
  readonly created: number;
  /** Log position when GitHub showed it completed; undefined while queued or in progress. */
  completed?: number;
  conclusion?: string;
}

export interface Judgement {
  /**
   * Runs dispatched while another run of the item was queued or in progress on GitHub, for an
   * epoch that already had a run, or after the item was done (closed as completed or labelled
   * done).
   */
  readonly doubleDispatch: number;
  /**
   * An item's run dispatched at an epoch not above every earlier run's, a claim head whose epoch is
   * below an earlier head's, or a new grant whose epoch is not above the grant before it.
   */
  readonly epochsBack: number;
  /** Items done (labelled done, or closed as completed) though no pull request of theirs was merged. */
  readonly falseDone: number;
  /** Items with other than exactly one snapshot comment of the bot (one approval each), or more than one status comment. */
  readonly commentsTwice: number;
  /** Dispatches that left a pool with more runs in progress on GitHub than its size, and the most any pool had. */
  readonly poolOverfill: number;
  readonly maxPoolLive: number;
  /** Runs not started by the App (a run is Bosun's dispatch only if its actor is the App). */
  readonly foreignRuns: number;
  readonly details: string[];
}

export class ChaosObserver {
  private seq = 0;
  readonly runs = new Map<number, RunSeen>();
  /** item → its claim ref's heads (epoch, state, when its grant was made), in the order they became the head. */
  readonly heads = new Map<number, Array<{ epoch: number; state: string; grantedAt: number | undefined }>>();
  private readonly lastHead = new Map<number, string>();
  /** item → the first log position at which it was done on GitHub (closed as completed or labelled done). */
  readonly doneAt = new Map<number, number>();

  constructor(
    private readonly fake: FakeGitHub,
    private readonly repoName: string,
    private readonly prefix: string,
    private readonly items: readonly number[],
    private readonly doneLabel: string,
    private readonly bot: string,
  ) {
    const accounting = fake.accounting;
    const record = accounting.record.bind(accounting);
    accounting.record = (entry) => {
      record(entry);
      this.seq++;
      if (entry.method !== "GET") this.scan();
    };
  }

  private get repo(): RepoState {
    return this.fake.repo(this.repoName);
  }

  /** Reads what changed on the fake since the last look (also called after the simulation's own seeding). */
  scan(): void {
    for (const run of this.repo.workflowRuns.values()) {
      let seen = this.runs.get(run.id);
      if (seen === undefined) {
        seen = { id: run.id, item: Number(run.inputs["item"]), epoch: Number(run.inputs["epoch"]), actor: run.actor, created: this.seq };
        this.runs.set(run.id, seen);
      }
      if (seen.completed === undefined && run.status === "completed") {
        seen.completed = this.seq;
        seen.conclusion = run.conclusion ?? "";
      }
    }
    for (const n of this.items) {
      const ref = `${this.prefix}${n}`;
      const sha = this.repo.refs.get(ref);
      if (sha !== undefined && this.lastHead.get(n) !== sha) {
        this.lastHead.set(n, sha);
        const record = parseClaimMessage(this.repo.commits.get(sha)?.message ?? "", ref);
        if (record !== undefined) this.heads.set(n, [...(this.heads.get(n) ?? []), { epoch: record.epoch, state: record.state, grantedAt: record.grantedAt }]);
      }
      if (!this.doneAt.has(n)) {
        const issue = this.repo.issues.get(n);
        if (issue?.labels.includes(this.doneLabel) === true || (issue?.state === "closed" && issue.stateReason === "completed")) this.doneAt.set(n, this.seq);
      }
    }
  }

  /** Completes a run on the fake (its worker finishing, or GitHub failing a run whose runner was lost) at this log position. */
  complete(id: number, conclusion: "success" | "failure" | "timed_out"): void {
    this.fake.completeWorkflowRun(this.repoName, id, conclusion);
    this.seq++;
    this.scan();
  }

  inProgress(id: number): boolean {
    return this.runs.get(id)?.completed === undefined;
  }

  /** Judges every item from what the fake recorded (see `Judgement`); `poolOf` is the simulation's own record of each item's pool. */
  judge(poolOf: (item: number) => string, poolSize: number): Judgement {
    this.scan();
    const details: string[] = [];
    let doubleDispatch = 0;
    let epochsBack = 0;
    let falseDone = 0;
    let commentsTwice = 0;
    let foreignRuns = 0;
    const spans = new Map<string, Array<{ from: number; to: number }>>();
    const byItem = new Map<number, RunSeen[]>();
    for (const run of this.runs.values()) byItem.set(run.item, [...(byItem.get(run.item) ?? []), run]);
    for (const item of this.items) {
      const runs = (byItem.get(item) ?? []).sort((a, b) => a.created - b.created);
      const doneAt = this.doneAt.get(item);
      runs.forEach((run, i) => {
        if (run.actor !== this.bot) {
          foreignRuns++;
          details.push(`#${item}: run ${run.id} started by ${run.actor}`);
        }
        spans.set(poolOf(item), [...(spans.get(poolOf(item)) ?? []), { from: run.created, to: run.completed ?? Number.POSITIVE_INFINITY }]);
        const earlier = runs.slice(0, i);
        const overlapping = earlier.filter((e) => e.completed === undefined || e.completed > run.created);
        if (overlapping.length > 0) {
          doubleDispatch++;
          details.push(`#${item}: run ${run.id} (epoch ${run.epoch}) dispatched while run ${overlapping.map((e) => `${e.id} (epoch ${e.epoch})`).join(", ")} was in progress on GitHub`);
        } else if (earlier.some((e) => e.epoch === run.epoch)) {
          doubleDispatch++;
          details.push(`#${item}: run ${run.id} dispatched a second time at epoch ${run.epoch}`);
        } else if (doneAt !== undefined && run.created > doneAt) {
          doubleDispatch++;
          details.push(`#${item}: run ${run.id} (epoch ${run.epoch}) dispatched after the item was done (log position ${doneAt})`);
        }
        if (earlier.some((e) => e.epoch >= run.epoch)) {
          epochsBack++;
          details.push(`#${item}: run ${run.id} has epoch ${run.epoch}, not above the epochs of the runs before it (${earlier.map((e) => e.epoch).join(", ")})`);
        }
      });
      const heads = this.heads.get(item) ?? [];
      let grant: { epoch: number; grantedAt: number | undefined } | undefined;
      heads.forEach((head, i) => {
        const before = heads[i - 1];
        if (before !== undefined && head.epoch < before.epoch) {
          epochsBack++;
          details.push(`#${item}: its claim ref went from epoch ${before.epoch} back to epoch ${head.epoch}`);
        }
        if (head.state !== "held" || head.grantedAt === grant?.grantedAt) return;
        if (grant !== undefined && head.epoch <= grant.epoch) {
          epochsBack++;
          details.push(`#${item}: granted again at epoch ${head.epoch} after a grant at epoch ${grant.epoch}`);
        }
        grant = { epoch: head.epoch, grantedAt: head.grantedAt };
      });
      const issue = this.repo.issues.get(item);
      const merged = [...this.repo.pulls.values()].some((p) => p.merged && p.headRef.startsWith(`bosun/${item}-`));
      if (doneAt !== undefined && !merged) {
        falseDone++;
        details.push(`#${item}: done (labels [${issue?.labels.join(", ") ?? ""}], ${issue?.state ?? "?"}) though no pull request of it was merged`);
      }
      const bots = [...this.repo.comments.values()].filter((c) => c.issueNumber === item && c.user === this.bot);
      const snapshots = bots.filter((c) => c.body.startsWith("<!-- bosun:snapshot -->")).length;
      const statuses = bots.filter((c) => c.body.startsWith("<!-- bosun:status -->")).length;
      // Never twice. And a worker is never sent without its frozen snapshot. An item whose every
      // writer died right after its record write (approval, grants, the settle) was never sent a
      // worker and may have no comment at all: its labels say where it is.
      const ran = [...this.runs.values()].some((r) => r.item === item);
      if (snapshots > 1 || statuses > 1 || (ran && snapshots !== 1)) {
        commentsTwice++;
        details.push(`#${item}: ${snapshots} snapshot comment(s) and ${statuses} status comment(s) for one approval${ran ? ", and a worker was sent" : ""}`);
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
        if (e.d > 0 && live > poolSize) {
          poolOverfill++;
          details.push(`pool ${pool}: ${live} runs in progress at log position ${e.at} (size ${poolSize})`);
        }
      }
    }
    return { doubleDispatch, epochsBack, falseDone, commentsTwice, poolOverfill, maxPoolLive, foreignRuns, details };
  }
}
