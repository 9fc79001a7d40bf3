import type { ClaimBatch } from "../../adapters/github/claim-batch.js";
import type { DenyReason } from "../../core/claims/claim-token.js";
import type { BosunConfig } from "../../core/config/bosun-config.js";
import { decideStep, type StepOptions } from "../../core/engine/decide-step.js";
import type { UnstampedEvent } from "../../core/journal/journal-emitter.js";
import { policies } from "../../core/queue/queue-policy.js";
import type { WrittenTick } from "./apply-tick-effects.js";
import type { Candidate, InFlightView, TickDeps, TickReport } from "./reconcile-tick.js";
import type { TickFacts } from "./read-tick-facts.js";
import { runsOfItem } from "./run-of.js";

/** What the tick's queue looked like, pool by pool, and the grants it planned from it. */
export interface GrantPlan {
  readonly granting: WrittenTick["granting"][number][];
  readonly queue: TickReport["queue"][number][];
}

/**
 * Refill each pool to its size, best first by the live policy: the step picks, counting in-flight
 * work by the pool recorded in each claim; a candidate denied here gives its slot to the next.
 * Every grant is planned into the tick's batch (nothing is written here), and every denial journalled.
 */
export async function planGrants(
  deps: TickDeps,
  batch: ClaimBatch,
  tick: { readonly ready: readonly Candidate[]; readonly inFlight: readonly InFlightView[]; readonly facts: Pick<TickFacts, "claimed" | "requeued" | "runs"> },
  now: number,
  rules: StepOptions,
  emit: (event: UnstampedEvent) => void,
): Promise<GrantPlan> {
  const { github, store, config } = deps;
  const { ready, inFlight } = tick;
  const { claimed, requeued, runs } = tick.facts;
  const leaseMs = config.lease * 1000;
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
        const before = runsOfItem(await runs(), n);
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
  return { granting, queue };
}
