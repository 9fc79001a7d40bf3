import type { Brief } from "../brief/brief.js";
import { dueTime } from "../brief/due-time.js";
import type { ClaimRecord } from "../claims/claim-record.js";
import { findSimilarKey } from "../claims/similarity-guard.js";
import { blockerVerdict, type BlockerStatus } from "../engine/blocker-rule.js";
import { ClassDurations } from "../engine/class-durations.js";
import { issueFacts } from "../intake/issue-facts.js";
import type { EstimatedQueueItem } from "../queue/queue-policy-type.js";
import { policies } from "../queue/queue-policy.js";
import type { ItemFacts, TickFacts } from "./tick-facts.js";

/** How long a settled claim key still keeps a similar new one out (the similarity guard's "recently completed"). */
export const RECENT_MS = 24 * 3_600_000;

/** An item ready for a grant, with what the grant and its dispatch need. */
export interface QueuedCandidate {
  readonly n: number;
  readonly item: ItemFacts;
  readonly key: string;
  readonly brief: Brief;
  readonly hash: string;
  readonly pool: string;
  readonly queueItem: EstimatedQueueItem & { readonly claimKey: string };
}

/**
 * The queue of a tick (docs/lifecycle.md): approved (or released) items whose approval still
 * stands, whose issue still holds the brief that was approved, not held, past any backoff, in a
 * configured pool, with every blocker landed ok — best first per pool by the live policy (with
 * run lengths learnt from the records, for `fair`). Everything else approved is waiting, with why.
 */
export function queueOfTick(facts: TickFacts, records: ReadonlyMap<number, ClaimRecord | undefined>): {
  readonly ready: readonly QueuedCandidate[];
  readonly waiting: Array<{ n: number; title: string; reason: string }>;
  readonly view: Array<{ pool: string; items: Array<{ n: number; title: string; band: number; reason: string }> }>;
  similarTo(key: string, pending: readonly string[]): string | undefined;
  waitingReason(n: number): string | undefined;
} {
  const { config, now } = facts;
  const L = config.labels;
  const waiting: Array<{ n: number; title: string; reason: string }> = [];
  const candidates: QueuedCandidate[] = [];
  const statusOf = blockerStatusOf(facts, records);
  const unblocks = new Map<string, number>();
  const durations = new ClassDurations();
  const liveKeys: string[] = [];
  for (const item of facts.items) {
    const r = records.get(item.n);
    if (r === undefined) continue;
    if (r.landing !== undefined && r.grantedAt !== undefined && r.state !== "held") durations.observe(r.key, r.at - r.grantedAt);
    if (r.state === "held" || r.state === "review" || r.state === "merged" || (r.state === "settled" && r.at >= now - RECENT_MS)) liveKeys.push(r.key);
    if (item.issue?.brief.ok === true && (r.state === "approved" || r.state === "released")) for (const b of item.issue.brief.brief.blocked_by) unblocks.set(b, (unblocks.get(b) ?? 0) + 1);
  }
  durations.publish();
  for (const item of facts.items) {
    const r = records.get(item.n);
    const issue = item.issue;
    if (r === undefined || issue === undefined || (r.state !== "approved" && r.state !== "released") || r.approval === undefined) continue;
    const wait = (reason: string): void => {
      waiting.push({ n: item.n, title: issue.title, reason });
    };
    if (r.briefHash === undefined) {
      wait(`the issue was edited after it was approved, so no text was frozen: approve it again (remove and add ${L.ready}) to run the text it holds now`);
      continue;
    }
    if (!issue.brief.ok || issue.brief.hash !== r.briefHash) {
      wait(`the brief in the issue changed after it was approved: approve it again (remove and add ${L.ready}) to run the new text; until then nothing runs`);
      continue;
    }
    if (issue.labels.some((l) => l.toLowerCase() === L.hold.toLowerCase())) {
      wait(`labelled ${L.hold}`);
      continue;
    }
    if (item.runLive === true) {
      wait("a run for it is still in progress, and no claim covers it");
      continue;
    }
    if (item.denied !== undefined) {
      wait(`${item.denied.reason}: ${item.denied.detail}`);
      continue;
    }
    if (r.notBefore !== undefined && r.notBefore > now) {
      wait(`a retry, not before ${new Date(r.notBefore).toISOString()}`);
      continue;
    }
    const brief = issue.brief.brief;
    const { band, pool } = issueFacts(issue.labels, brief, config);
    if (!Object.hasOwn(config.pools, pool)) {
      wait(`its pool '${pool}' is not configured in .github/bosun.yml`);
      continue;
    }
    const verdict = blockerVerdict(brief.blocked_by.map((b) => ({ name: b, status: statusOf(b) })));
    if (verdict.kind === "waiting") {
      wait(`blocked by ${verdict.on.join(", ")}`);
      continue;
    }
    if (verdict.kind === "blocked") {
      wait(`blocked: ${verdict.by.join(", ")} did not land ok`);
      continue;
    }
    const due = dueTime(brief.due);
    candidates.push({
      n: item.n,
      item,
      key: r.key,
      brief,
      hash: issue.brief.hash,
      pool,
      queueItem: { id: String(item.n), band, createdAt: issue.createdAt, ...(due === undefined ? {} : { due }), unblocks: unblocks.get(brief.id) ?? unblocks.get(`#${item.n}`) ?? 0, pool, claimKey: r.key },
    });
  }
  const base = policies[config.policy];
  const policy = base.withEstimates?.(durations) ?? base;
  const ready: QueuedCandidate[] = [];
  const view: Array<{ pool: string; items: Array<{ n: number; title: string; band: number; reason: string }> }> = [];
  for (const poolName of Object.keys(config.pools)) {
    const mine = candidates.filter((c) => c.pool === poolName).sort((a, b) => policy.compare(a.queueItem, b.queueItem, now));
    view.push({ pool: poolName, items: mine.map((c) => ({ n: c.n, title: c.item.issue?.title ?? `#${c.n}`, band: c.queueItem.band, reason: policy.explain(c.queueItem, now) })) });
    ready.push(...mine);
  }
  const reasons = new Map(waiting.map((w) => [w.n, w.reason]));
  return {
    ready,
    waiting,
    view,
    similarTo(key, pending) {
      const found = findSimilarKey(key, [...liveKeys, ...pending], config.claims.namespaces);
      return found === undefined ? undefined : `${found.key} (shares ${found.shared.join(", ")})`;
    },
    waitingReason: (n) => reasons.get(n),
  };
}

/**
 * The one blocker rule's facts on GitHub (docs/lifecycle.md): a blocker named `#m` or by brief id
 * is found by its record; landed ok only when its record settled ok; not ok when it settled
 * otherwise, or its approval was refused as invalid or withdrawn; pending while it is queued, held,
 * in review or merged — and, as in the local drain, while nothing by that name is known yet. An
 * issue `#m` Bosun never recorded counts by its state: closed as completed is landed ok, closed
 * otherwise is not ok, open is pending.
 */
export function blockerStatusOf(facts: TickFacts, records: ReadonlyMap<number, ClaimRecord | undefined>): (name: string) => BlockerStatus {
  const byBriefId = new Map<string, number>();
  for (const item of facts.items) {
    const r = records.get(item.n);
    const id = r?.briefId ?? (item.issue?.brief.ok === true ? item.issue.brief.brief.id : undefined);
    if (id !== undefined && !byBriefId.has(id)) byBriefId.set(id, item.n);
  }
  const byN = new Map(facts.items.map((i) => [i.n, i]));
  const ofRecord = (r: ClaimRecord): BlockerStatus => (r.state === "settled" ? (r.outcome?.ok === true ? "landed-ok" : "not-ok") : r.state === "invalid" || r.state === "withdrawn" ? "not-ok" : "pending");
  return (name) => {
    const n = name.startsWith("#") ? Number(name.slice(1)) : byBriefId.get(name);
    if (n === undefined || !Number.isInteger(n)) return "pending";
    const r = records.get(n);
    if (r !== undefined) return ofRecord(r);
    const issue = byN.get(n)?.issue;
    if (issue === undefined || issue.open) return "pending";
    return issue.completed ? "landed-ok" : "not-ok";
  };
}
