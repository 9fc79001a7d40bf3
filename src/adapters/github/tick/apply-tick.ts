import { briefHash } from "../../../core/brief/parse-brief.js";
import { fromMicros } from "../../../core/budget/budget-cap.js";
import { giveBackIn } from "../../../core/budget/claim-spend.js";
import { released } from "../../../core/claims/record-transitions.js";
import { renderSnapshotComment } from "../../../core/brief/snapshot.js";
import type { ClaimToken } from "../../../core/claims/claim-token.js";
import type { BosunConfig, DispatchConfig } from "../../../core/config/bosun-config.js";
import type { Clock } from "../../../core/engine/clock.js";
import { renderProblemsComment } from "../../../core/intake/intake-comments.js";
import type { Journal } from "../../../core/journal/journal-event.js";
import { journalEmitter } from "../../../core/journal/journal-emitter.js";
import { mirrorLabels } from "../../../core/scheduler/mirror-labels.js";
import { renderStatusComment } from "../../../core/scheduler/status-comment.js";
import type { PlannedEffect, TickPlan } from "../../../core/scheduler/tick-plan.js";
import type { GitHubClaimStore } from "../github-claim-store.js";
import { dispatchInstruction } from "./dispatch-instruction.js";
import { DispatchOutcomeUnknown } from "./dispatch-outcome-unknown.js";
import { BATCH_MOST } from "./octokit-dispatch-batch.js";
import type { TickGitHub } from "./tick-github.js";

type WorkflowDispatch = Extract<DispatchConfig, { kind: "workflow" }>;

/** A granted item of a `batch` pool waiting to go out with the others, and how to journal its dispatch. */
interface BatchItem {
  readonly n: number;
  readonly token: ClaimToken;
  readonly hash: string;
  readonly journalled: () => void;
}

export interface ApplyInput {
  readonly github: TickGitHub;
  readonly store: GitHubClaimStore;
  readonly config: BosunConfig;
  readonly clock: Clock;
  readonly journal: Journal;
  readonly holder: string;
  /**
   * Other replicas may be writing the same batch (the tick was set off by a webhook they heard
   * too): see whether the refs it moves are still where the plan read them before writing it.
   */
  readonly recheck?: boolean;
}

/** The batch did not land: another writer moved first (decide again), or the write failed on its own. */
export interface LostBatch {
  readonly lost: true;
  readonly conflict: boolean;
  readonly detail: string;
}

export interface Applied {
  readonly lost: false;
  readonly dispatched: readonly number[];
  /** Mirror writes and effects that failed: the records stand, and the next tick repairs the mirrors. */
  readonly failures: readonly string[];
}

/** A hidden line naming the approval a comment belongs to: one approval, one such comment. */
export const approvalMarker = (id: number): string => `<!-- bosun:approval ${id} -->`;

/**
 * The apply stage of a tick: the plan's records as one commit and one all-or-nothing ref update
 * (nothing else happens if it lost), then what follows it in order — comments, dispatches, the
 * journal — then the labels that mirror the new records. Every effect is attempted even if another
 * fails; the records are the truth, and the next tick repairs a mirror that did not follow.
 */
export async function applyTick(input: ApplyInput, plan: TickPlan): Promise<Applied | LostBatch> {
  const { github, store, config } = input;
  const emit = journalEmitter(input.journal, input.clock);
  let granted: ReadonlyMap<string, ClaimToken> = new Map();
  const grantedAt = input.clock.now();
  if (plan.writes.length > 0) {
    const batch = store.newBatch(input.clock.now());
    for (const w of plan.writes) batch.writes.set(w.ref, { from: w.from, record: w.next, grant: w.grant });
    batch.granting = plan.writes.some((w) => w.grant);
    // Dropped unwritten, it costs one conditional read instead of two content-creating requests.
    if (input.recheck === true && !(await store.stillCurrent(batch))) return { lost: true, conflict: true, detail: "another writer moved these claims while this tick planned: the batch was dropped unwritten" };
    const written = await store.commitBatch(batch);
    if (!written.ok) return { lost: true, conflict: written.conflict, detail: written.detail };
    granted = written.granted;
  }
  const failures: string[] = [];
  const attempt = async (what: string, effect: () => Promise<void>): Promise<boolean> => {
    try {
      await effect();
      return true;
    } catch (err) {
      failures.push(`${what}: ${err instanceof Error ? err.message : String(err)}`);
      return false;
    }
  };
  const dispatched: number[] = [];
  /** Items whose frozen snapshot this apply had to post and could not: they are not dispatched without it. */
  const unfrozen = new Set<number>();
  /** n → the trigger label a `label` dispatch put on it (it may have applied even when it answered an error). */
  const triggers = new Map<number, string>();
  /** Grants given back (their dispatch refused, or no snapshot to dispatch under): their labels mirror the queue. */
  const givenBack = new Set<number>();
  /** Items of `batch` workflow pools waiting to go out together: one run a workflow and ref, up to BATCH_MOST items. */
  const batches = new Map<string, { dispatch: WorkflowDispatch; items: BatchItem[] }>();
  for (const effect of plan.effects) {
    if (effect.kind === "journal") {
      emit(effect.event);
      continue;
    }
    const ok = await attempt(`#${effect.n} ${effect.kind}`, () => perform(effect));
    if (!ok && effect.kind === "snapshot") unfrozen.add(effect.n);
  }
  for (const { dispatch, items } of batches.values()) {
    for (let i = 0; i < items.length; i += BATCH_MOST) {
      const chunk = items.slice(i, i + BATCH_MOST);
      await attempt(chunk.map((c) => `#${c.n}`).join(", ") + " dispatch", () => sendBatch(dispatch, chunk));
    }
  }
  // The labels are set whole from what the gather read: a trigger label this tick's dispatch added
  // is not in it, and setting the set without it would take it straight off the agent's issue.
  for (const { n, labels: planned } of plan.labels) {
    // A grant whose dispatch was refused went back to the queue: its labels mirror that record.
    const labels = givenBack.has(n) ? (mirrorLabels(planned, { state: "released" }, config.labels) ?? planned) : planned;
    const added = triggers.get(n);
    const whole = added === undefined || labels.some((l) => l.toLowerCase() === added.toLowerCase()) ? labels : [...labels, added];
    await attempt(`#${n} labels`, () => github.setLabels(n, whole));
  }
  return { lost: false, dispatched, failures };

  /**
   * Too late to dispatch: past half the dispatch deadline another writer may be taking the grant
   * back, and two workers must never start. The taker dispatches it at the next epoch.
   */
  function tooLate(n: number): boolean {
    if (input.clock.now() <= grantedAt + (config.dispatch_deadline * 1000) / 2) return false;
    failures.push(`#${n} dispatch: not sent, ${Math.round((input.clock.now() - grantedAt) / 1000)} s after its grant (past half the dispatch deadline): the grant is taken back and dispatched again`);
    return true;
  }

  /** One run for several items: their fates go together (started, maybe started, or refused). */
  async function sendBatch(dispatch: WorkflowDispatch, items: readonly BatchItem[]): Promise<void> {
    const sendable = items.filter((i) => !tooLate(i.n));
    if (sendable.length === 0) return;
    // Journalled as sent, right before sending (as one item's is): one that was too late never was.
    for (const i of sendable) i.journalled();
    try {
      await github.dispatchBatch(dispatch, sendable.map((i) => ({ item: String(i.n), epoch: i.token.epoch, briefHash: i.hash })));
      dispatched.push(...sendable.map((i) => i.n));
    } catch (err) {
      // It may have started: every claim in it stays held until the run shows or the deadline.
      if (err instanceof DispatchOutcomeUnknown) return;
      for (const i of sendable) await giveBack(i.token, i.n, `dispatch failed: ${err instanceof Error ? err.message : String(err)}`);
      throw err;
    }
  }

  /** A grant no worker was sent for goes back to the queue for a retry with backoff, rather than hold an item nobody works on. */
  async function giveBack(token: ClaimToken, n: number, reason: string): Promise<void> {
    const now = input.clock.now();
    // Nothing ran under the grant: the money it reserved goes back with it.
    const landed = await store.land(token, (r) => released(giveBackIn(r, token.epoch), { kind: "retry", notBefore: now + 60_000 }, now), now);
    if (landed.ok) givenBack.add(n);
    emit({ event: "LAND", item: String(n), epoch: token.epoch, ok: false, stop: { kind: "failed", reason }, failure: "retry", disposition: "retry", ...(landed.ok ? {} : { fenced: landed.detail }) });
  }

  async function perform(effect: Exclude<PlannedEffect, { kind: "journal" }>): Promise<void> {
    switch (effect.kind) {
      case "snapshot": {
        // Posted only by the writer whose batch recorded this approval (or granted it): the
        // compare-and-swap made it the only one. A crash before posting is repaired at the grant.
        // What this process already knows (it posted it) will do; otherwise read, the guard against a second.
        const known = effect.first ? {} : await github.botComments(effect.n, false);
        const comments = effect.first || known.snapshot?.hash === briefHash(effect.brief) ? known : await github.botComments(effect.n, true);
        if (comments.snapshot?.hash === undefined || comments.snapshot.hash !== briefHash(effect.brief)) {
          const body = renderSnapshotComment(effect.brief, `Bosun froze this brief when **${effect.approval.by}** approved it; later edits to the issue do not change it until it is approved again.\n${approvalMarker(effect.approval.id)}`);
          await github.comment(effect.n, body);
        }
        return;
      }
      case "problems":
        await github.comment(effect.n, `${renderProblemsComment(effect.problems, config.labels.ready)}${approvalMarker(effect.approval.id)}\n`);
        return;
      case "status": {
        const body = renderStatusComment(effect.record, effect.extras);
        // Edits use what this process knows; a creation reads first, the guard against a second.
        let comments = effect.first === true ? {} : await github.botComments(effect.n, false);
        if (comments.status === undefined && effect.create && effect.first !== true) comments = await github.botComments(effect.n, true);
        if (comments.status !== undefined) {
          if (comments.status.body.trim() !== body.trim()) await github.updateComment(comments.status.id, body);
        } else if (effect.create) await github.comment(effect.n, body);
        return;
      }
      case "close":
        await github.closeIssue(effect.n);
        return;
      case "dispatch": {
        const token = granted.get(effect.key);
        if (token === undefined) return;
        const pool = config.pools[effect.pool];
        if (pool === undefined) return;
        if (tooLate(effect.n)) return;
        // The gate judges the pull request against the frozen snapshot only: work dispatched without
        // one could never pass. The grant goes back for a retry, whose grant posts the snapshot first.
        if (unfrozen.has(effect.n)) {
          await giveBack(token, effect.n, "not dispatched: its frozen snapshot could not be posted");
          return;
        }
        const journalled = (): void => emit({ event: "DISPATCH", item: String(effect.n), epoch: token.epoch, attempt: token.epoch, tier: pool.tier, ...(effect.reserve === undefined ? {} : { reserve_usd: fromMicros(effect.reserve) }) });
        if (pool.dispatch.kind === "workflow" && pool.dispatch.batch === true) {
          const key = `${pool.dispatch.workflow}\0${pool.dispatch.ref ?? ""}`;
          const group = batches.get(key) ?? { dispatch: pool.dispatch, items: [] };
          group.items.push({ n: effect.n, token, hash: effect.hash, journalled });
          batches.set(key, group);
          return;
        }
        journalled();
        // A definite refusal put no label on; an unknown outcome may have, and the claim stays held.
        const trigger = pool.dispatch.kind === "label" ? pool.dispatch.label : undefined;
        try {
          await github.dispatch(effect.n, pool.dispatch, { item: String(effect.n), epoch: token.epoch, briefHash: effect.hash, instruction: dispatchInstruction(effect.n, token, effect.hash, pool.dispatch) });
          dispatched.push(effect.n);
          if (trigger !== undefined) triggers.set(effect.n, trigger);
        } catch (err) {
          // It may have started: the claim stays held; its worker is unseen until it shows, and
          // the dispatch deadline takes the claim back if it never does.
          if (err instanceof DispatchOutcomeUnknown) {
            if (trigger !== undefined) triggers.set(effect.n, trigger);
            return;
          }
          // Definitely not started (a 4xx): the claim goes back for a retry with backoff rather
          // than hold an item no worker has.
          await giveBack(token, effect.n, `dispatch failed: ${err instanceof Error ? err.message : String(err)}`);
          throw err;
        }
        return;
      }
    }
  }
}
