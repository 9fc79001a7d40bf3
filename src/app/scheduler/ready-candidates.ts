import type { BosunConfig } from "../../core/config/bosun-config.js";
import { blockerVerdict, type BlockerStatus } from "../../core/engine/blocker-rule.js";
import { issueFacts } from "../../core/intake/issue-facts.js";
import type { GitHubClaimStore } from "../../adapters/github/github-claim-store.js";
import type { Candidate } from "./reconcile-tick.js";
import type { QueueIssue, SchedulerReads } from "./scheduler-github.js";

export interface QueueView {
  /** Ready to claim, with how many queued items each unblocks. */
  readonly ready: readonly Candidate[];
  readonly skipped: ReadonlyArray<{ issue: number; title: string; reason: string }>;
}

/**
 * The queue as the tick sees it: queued issues with a valid snapshot, not held or landed, not in
 * flight or settled, and not waiting on a blocker. A blocker is waiting while it is still queued
 * (by brief id, in flight or not) or, for `#n`, while issue n is open and has not landed ok.
 */
export async function readyCandidates(input: {
  readonly issues: readonly QueueIssue[];
  readonly github: Pick<SchedulerReads, "snapshot">;
  readonly store: Pick<GitHubClaimStore, "bind">;
  readonly config: BosunConfig;
  /** Issues whose claim is live, with their brief ids. */
  readonly live: ReadonlyMap<number, string | undefined>;
  /** Issues whose claim settled, with whether they landed ok. */
  readonly settled: ReadonlyMap<number, { readonly ok: boolean }>;
  /** Whether an issue outside the queue is open (asked only for `#n` blockers). */
  readonly isOpen: (issue: number) => Promise<boolean>;
}): Promise<QueueView> {
  const { config, github } = input;
  const labels = config.labels;
  const skipped: Array<{ issue: number; title: string; reason: string }> = [];
  const candidates: Candidate[] = [];
  const blockedOut = new Set<string>([labels.hold, labels.needsHuman, labels.done, labels.invalidBrief]);
  for (const issue of input.issues) {
    if (input.live.has(issue.number) || input.settled.has(issue.number)) continue;
    const stop = issue.labels.find((l) => blockedOut.has(l));
    if (stop !== undefined) {
      skipped.push({ issue: issue.number, title: issue.title, reason: `labelled ${stop}` });
      continue;
    }
    const snap = await github.snapshot(issue);
    if (!snap.ok) {
      skipped.push({ issue: issue.number, title: issue.title, reason: snap.reason });
      continue;
    }
    const facts = issueFacts(issue.labels, snap.snapshot.brief, config);
    input.store.bind(snap.snapshot.brief.claim_key, `${config.claims.ref_prefix}${issue.number}`);
    const due = snap.snapshot.brief.due === undefined ? undefined : Date.parse(snap.snapshot.brief.due);
    candidates.push({
      issue,
      brief: snap.snapshot.brief,
      hash: snap.snapshot.hash,
      commentId: snap.commentId,
      commentBody: snap.body,
      item: { id: String(issue.number), band: facts.band, createdAt: issue.createdAt, ...(due === undefined || Number.isNaN(due) ? {} : { due }), unblocks: 0, pool: facts.pool },
    });
  }
  const queued = new Set(input.issues.map((i) => i.number));
  const pendingIds = new Set([...candidates.map((c) => c.brief.id), ...[...input.live.values()].filter((id): id is string => id !== undefined)]);
  const unblocks = new Map<string, number>();
  for (const c of candidates) for (const b of c.brief.blocked_by) unblocks.set(b, (unblocks.get(b) ?? 0) + 1);
  const ready: Candidate[] = [];
  // What GitHub shows of a blocker, for the one blocker rule: a brief id still queued or in flight
  // is pending (one no longer queued has landed, as far as the queue can tell); `#n` settled says
  // how it landed; `#n` queued or open is pending; closed is done.
  const statusOf = async (b: string): Promise<BlockerStatus> => {
    if (!b.startsWith("#")) return pendingIds.has(b) ? "pending" : "landed-ok";
    const n = Number(b.slice(1));
    const outcome = input.settled.get(n);
    if (outcome !== undefined) return outcome.ok ? "landed-ok" : "not-ok";
    return queued.has(n) || (await input.isOpen(n)) ? "pending" : "landed-ok";
  };
  for (const c of candidates) {
    const blockers: Array<{ name: string; status: BlockerStatus }> = [];
    for (const b of c.brief.blocked_by) blockers.push({ name: b, status: await statusOf(b) });
    const verdict = blockerVerdict(blockers);
    if (verdict.kind === "waiting") skipped.push({ issue: c.issue.number, title: c.issue.title, reason: `blocked by ${verdict.on.join(", ")}` });
    else if (verdict.kind === "blocked") skipped.push({ issue: c.issue.number, title: c.issue.title, reason: `blocked: ${verdict.by.join(", ")} did not land ok` });
    else ready.push({ ...c, item: { ...c.item, unblocks: unblocks.get(c.brief.id) ?? unblocks.get(`#${c.issue.number}`) ?? 0 } });
  }
  return { ready, skipped };
}
