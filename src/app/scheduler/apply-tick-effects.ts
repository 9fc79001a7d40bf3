import type { ClaimToken } from "../../core/claims/claim-token.js";
import type { BosunConfig } from "../../core/config/bosun-config.js";
import { journalEmitter } from "../../core/journal/journal-emitter.js";
import type { Disposition } from "../../core/stop/stop.js";
import { dispatchItem } from "./dispatch-item.js";
import { DispatchOutcomeUnknown } from "./dispatch-outcome-unknown.js";
import { afterLanding, landItem, type Landing } from "./land-item.js";
import type { Candidate, InFlightView, TickDeps } from "./reconcile-tick.js";
import { stepOptionsOf } from "./step-options-of.js";
import { decideGrant } from "../../core/engine/decide-step.js";
import type { QueueIssue, WorkflowRunView } from "./scheduler-github.js";
import { withWorkCost } from "./work-cost-of.js";

/** What a tick decided and wrote in its batch, for the effects that follow it. */
export interface WrittenTick {
  readonly reclaims: ReadonlyArray<{ n: number; holder: string; epoch: number }>;
  /** `run`: the ended workflow run the landing comes from, whose `bosun/work` record may carry its cost. */
  readonly lands: ReadonlyArray<{ n: number; issue: QueueIssue | undefined; token: ClaimToken; landing: Landing; run?: WorkflowRunView }>;
  readonly granting: ReadonlyArray<{ c: Candidate; pool: BosunConfig["pools"][string]; poolName: string }>;
}

/**
 * Once a tick's batch is written: journal the reclaims and lands and mirror them in labels and the
 * snapshot comment, then dispatch every grant (adding it to `inFlight`). Every effect is attempted
 * even if another fails, so that one bad label write never keeps a granted item from its worker;
 * the failures are thrown together at the end. The refs are the truth; the next tick repairs a
 * mirror that did not follow.
 */
export async function applyTickEffects(deps: TickDeps, granted: ReadonlyMap<string, ClaimToken>, tick: WrittenTick, inFlight: InFlightView[]): Promise<{ reclaimed: number[]; landed: Array<{ issue: number; disposition: Disposition; summary: string }>; dispatched: number[] }> {
  const { github, config } = deps;
  const labels = config.labels;
  const emit = journalEmitter(deps.journal, deps.clock);
  const { reclaims, lands, granting } = tick;
  const failures: string[] = [];
  const attempt = async (what: string, effect: () => Promise<void>): Promise<void> => {
    try {
      await effect();
    } catch (err) {
      failures.push(`${what}: ${err instanceof Error ? err.message : String(err)}`);
    }
  };
  const reclaimed: number[] = [];
  for (const r of reclaims) {
    reclaimed.push(r.n);
    emit({ event: "RECLAIM", item: String(r.n), from: r.holder, epoch: r.epoch });
    // Only the mirror is left to fix: granted again in this batch, it is relabelled below.
    if (!granting.some((g) => g.c.issue.number === r.n)) await attempt(`#${r.n} reclaim label`, () => github.removeLabel(r.n, labels.claimed));
  }
  const landed: Array<{ issue: number; disposition: Disposition; summary: string }> = [];
  for (const l of lands) {
    // The claim already moved in the batch: the record only adds the cost to what is journalled.
    const landing = l.run === undefined ? l.landing : await withWorkCost(deps, l.n, l.token.epoch, l.run, l.landing);
    await attempt(`#${l.n} landing labels and comment`, () => afterLanding(deps, l.n, l.issue, l.token, landing));
    landed.push({ issue: l.n, disposition: l.landing.disposition, summary: l.landing.summary });
  }
  const dispatched: number[] = [];
  const rules = stepOptionsOf(config);
  for (const { c, pool, poolName } of granting) {
    const token = granted.get(c.brief.claim_key);
    if (token === undefined) continue;
    const next = decideGrant(String(c.issue.number), token.epoch, rules);
    if (next.kind === "settle-to-human") {
      // Granted past its attempts: never dispatched, it goes to a human.
      await attempt(`#${c.issue.number} settle past its attempts`, async () => {
        const result = await landItem(deps, c.issue.number, c.issue, token, next.landing.stop);
        if (result !== undefined) landed.push({ issue: c.issue.number, ...result });
      });
      continue;
    }
    const flying = { issue: c.issue.number, title: c.issue.title, pool: poolName, holder: deps.holder, epoch: token.epoch, leaseUntil: token.expiresAt, grantedAt: deps.clock.now() };
    try {
      await dispatchItem(deps, c, token, pool.dispatch, pool.tier);
    } catch (err) {
      if (err instanceof DispatchOutcomeUnknown) {
        // It may have started: the claim stays held (and its slot taken); its worker is unseen
        // until it shows, and the lease rule takes it back if it never does.
        // Not a failure of the tick (nothing to repair): the next ticks find the worker or not.
        inFlight.push(flying);
        continue;
      }
      // Definitely not started (a 4xx, or the label write before it failed): give the claim back
      // for a retry with backoff rather than hold an item no worker has.
      const reason = `dispatch failed: ${err instanceof Error ? err.message : String(err)}`;
      await attempt(`#${c.issue.number} release after a failed dispatch`, async () => {
        const result = await landItem(deps, c.issue.number, c.issue, token, { kind: "failed", failure: "retry", reason });
        if (result !== undefined) landed.push({ issue: c.issue.number, ...result });
      });
      continue;
    }
    dispatched.push(c.issue.number);
    inFlight.push(flying);
  }
  if (failures.length > 0) throw new Error(`the tick wrote its claims and dispatched, but ${failures.length} mirror write(s) failed (the next tick repairs them): ${failures.join("; ")}`);
  return { reclaimed, landed, dispatched };
}
