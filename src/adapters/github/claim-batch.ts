import type { ClaimToken } from "../../core/claims/claim-token.js";
import type { ClaimRecord } from "../../core/claims/claim-record.js";

/**
 * Changes to several claims planned by one reconcile tick, written as one commit and one atomic
 * update of every ref it moves (see `commitBatch`). Nothing in it is granted until it is committed:
 * tokens come only from `commitBatch`.
 */
export interface ClaimBatch {
  readonly now: number;
  /** ref → where it pointed when planned, and its record after the batch. */
  readonly writes: Map<string, { readonly from: string | undefined; readonly record: ClaimRecord; readonly grant: boolean }>;
  /** Whether the batch grants anything: then it also moves the generation ref (pool bounds). */
  granting: boolean;
}

export type BatchResult =
  | { readonly ok: true; readonly granted: ReadonlyMap<string, ClaimToken> }
  /** `conflict`: another writer moved first (decide again); otherwise the write failed on its own. */
  | { readonly ok: false; readonly conflict: boolean; readonly detail: string };
