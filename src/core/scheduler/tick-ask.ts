import type { ClaimRecord } from "../claims/claim-record.js";
import type { BosunConfig } from "../config/bosun-config.js";

/**
 * What a webhook asks of a tick, when it asks for one thing only (docs/scheduling.md, "Asks"):
 * - `run-ended`: the App's work run for item `n` at `epoch` ended — its claim must be landed;
 * - `pull-closed`: a pull request linked to item `n` closed — its review must be taken in;
 * - `approved`: the approval label went on issue `n` at `at` (GitHub's time, whole seconds) — an
 *   approval that recent must be recorded (a refused or withdrawn one leaves none: a whole tick);
 * - `records`: only the claim records are wanted (to place a gate verdict the replica heard on the
 *   item in review: `RepoTicker.heardGate`) — answered by reading them.
 * The ended run also frees a pool's slot, so every ask also asks that no slot stays free while an
 * item waits. Other deliveries (an approval, a gate's failure, a comment, a sweep) ask for a whole
 * tick and carry no ask.
 */
export type TickAsk = { readonly kind: "run-ended"; readonly n: number; readonly epoch: number } | { readonly kind: "pull-closed"; readonly n: number } | { readonly kind: "approved"; readonly n: number; readonly at: number } | { readonly kind: "records" };

/** Where a record stands after its pull request's close was taken in (or it never waited for one). */
const PAST_REVIEW: ReadonlySet<ClaimRecord["state"]> = new Set(["approved", "released", "settled", "withdrawn", "invalid", "merged"]);

/**
 * Whether the claim records alone show that every ask was already answered — by another replica
 * that heard the same moves, or a land job — so the tick need read nothing else: each ended run's
 * epoch is no longer held, each closed pull request's item is past review, each approval is
 * recorded (one given at that second or later), and no pool has a free
 * slot while a record waits for a grant. Anything else (a record missing, an item still held or in
 * review, a free slot beside a waiting item, no ask at all) answers false: a whole tick. False is
 * always safe; true only skips what another tick already did.
 */
export function asksAnswered(asks: readonly TickAsk[], records: ReadonlyMap<number, ClaimRecord>, config: BosunConfig, now: number): boolean {
  if (asks.length === 0) return false;
  for (const ask of asks) {
    if (ask.kind === "records") continue;
    const r = records.get(ask.n);
    if (ask.kind === "run-ended" && (r === undefined || (r.state === "held" && r.epoch === ask.epoch))) return false;
    if (ask.kind === "pull-closed" && r !== undefined && !PAST_REVIEW.has(r.state)) return false;
    if (ask.kind === "approved" && (r?.approval === undefined || r.approval.at < ask.at)) return false;
  }
  const held = new Map<string, number>();
  let waiting = false;
  for (const r of records.values()) {
    if (r.state === "held") held.set(r.pool ?? "default", (held.get(r.pool ?? "default") ?? 0) + 1);
    // A record that would be granted now: approved (or back in the queue) under a frozen brief, its backoff over.
    else if ((r.state === "approved" || r.state === "released") && r.briefHash !== undefined && (r.notBefore ?? 0) <= now) waiting = true;
  }
  if (!waiting) return true;
  return Object.entries(config.pools).every(([name, pool]) => (held.get(name) ?? 0) >= pool.size);
}
