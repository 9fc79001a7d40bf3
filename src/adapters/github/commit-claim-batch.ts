import type { ClaimBatch } from "./claim-batch.js";
import type { ClaimRecord } from "../../core/claims/claim-record.js";
import { renderBatchMessage } from "../../core/claims/claim-record.js";
import type { ClaimRefView } from "./claim-ref-view.js";
import type { ClaimRefsApi } from "./claim-refs-api.js";

/** Reads of the claim listing after a batch whose outcome is unknown, before the tick gives up. */
const READ_BACK_ATTEMPTS = 3;

/**
 * A batch as written: the records it granted (the claim store mints their tokens, nobody else
 * may), or why it was not applied (`conflict`: another writer moved first, decide again).
 */
export type CommittedBatch =
  | { readonly ok: true; readonly granted: readonly ClaimRecord[] }
  | { readonly ok: false; readonly conflict: boolean; readonly detail: string };

/**
 * Writes a batch: one commit whose parents are the old heads, then one all-or-nothing update of
 * every ref (plus the generation ref when it grants). A failure is unknown until read back: the
 * batch counts as applied only when EVERY ref it names points at its commit — a listing that
 * shows some of them there proves nothing about the rest.
 */
export async function commitClaimBatch(refs: ClaimRefsApi, view: ClaimRefView, generationRef: string, batch: ClaimBatch): Promise<CommittedBatch> {
  if (batch.writes.size === 0) return { ok: true, granted: [] };
  const writes = [...batch.writes].map(([ref, w]) => ({ ref, ...w }));
  const updates = writes.map((w) => ({ ref: w.ref, from: w.from }));
  if (batch.granting) updates.push({ ref: generationRef, from: view.head(generationRef) ?? undefined });
  const parents = [...new Set(updates.map((u) => u.from).filter((s): s is string => s !== undefined))];
  const { sha, signedBy } = await refs.createCommit(renderBatchMessage(writes), parents);
  view.wrote(sha, { byRef: new Map(writes.map((w) => [w.ref, { record: w.record, from: w.from }])) }, signedBy, parents);
  const outcome = await refs.updateRefs(updates.map((u) => ({ ...u, to: sha })));
  let applied = outcome === "applied";
  if (!applied) {
    // A failed read here would fail the tick with its grants perhaps written and not dispatched
    // (held until their leases end): the listing is tried a few times.
    await view.list(0, READ_BACK_ATTEMPTS);
    applied = updates.every((u) => view.head(u.ref) === sha);
  }
  if (!applied) {
    // Refused while every ref is still where the tick read it: not a race another tick won, but a
    // failure to report (no permission, no updateRefs on this server, a transient error).
    const moved = updates.some((u) => (view.head(u.ref) ?? undefined) !== u.from);
    if (!moved && outcome !== "applied") return { ok: false, conflict: false, detail: `updateRefs failed with no other writer in the way: ${outcome.unknown}` };
    return { ok: false, conflict: true, detail: "another writer moved a claim or granted since this tick read them (or the batch's outcome could not be read back whole)" };
  }
  for (const u of updates) view.moved(u.ref, sha);
  return { ok: true, granted: writes.filter((w) => w.grant).map((w) => w.record) };
}

/**
 * Whether a batch would still apply as planned (`GitHubClaimStore.stillCurrent`): one conditional
 * listing, then every ref it moves where the plan read it, and the generation ref too when it grants.
 */
export async function batchStillCurrent(view: ClaimRefView, generationRef: string, batch: ClaimBatch): Promise<boolean> {
  if (batch.writes.size === 0) return true;
  // The generation's expected value is the one the plan read: `commitClaimBatch` takes it from the
  // view, which the listing below refreshes, so a moved generation must refuse here.
  const generation = view.head(generationRef) ?? undefined;
  try {
    await view.list();
  } catch {
    return true;
  }
  for (const [ref, w] of batch.writes) if ((view.head(ref) ?? undefined) !== w.from) return false;
  return !batch.granting || (view.head(generationRef) ?? undefined) === generation;
}
