import type { ClaimRecord } from "../../core/claims/claim-record.js";
import { previousOf } from "../../core/claims/claim-record.js";
import type { ClaimRefView } from "./claim-ref-view.js";

/** A ref whose head GitHub did not sign for the store's signer: the record it claims is not believed. */
export interface ForgedHead {
  readonly sha: string;
  /** Who GitHub signed it for, if anyone. */
  readonly signedBy: string | undefined;
}

/** How many commits below a forged head are searched for the newest record Bosun wrote. */
const TRUSTED_DEPTH = 10;

/**
 * The record believed at a ref's head `sha` (whose own record is `record`): its own when GitHub
 * signed the head for `signer` (or no signer is set); otherwise the newest record below it that
 * GitHub signed for the signer, if any within reach, with the forged head reported.
 */
export async function believedRecord(view: ClaimRefView, signer: string | undefined, ref: string, sha: string, record: ClaimRecord | undefined): Promise<{ record: ClaimRecord | undefined; forged?: ForgedHead }> {
  if (signer === undefined) return { record };
  const signedBy = await view.signerAt(sha);
  if (signedBy === signer) return { record };
  const forged = { sha, signedBy };
  let at = sha;
  for (let depth = 0; depth < TRUSTED_DEPTH; depth++) {
    const commit = view.commitOf(at);
    const previous = previousOf(commit ?? undefined, ref, await view.parentsOf(at));
    if (previous === undefined) return { record: undefined, forged };
    at = previous;
    if ((await view.signerAt(at)) === signer) return { record: await view.recordAt(at, ref), forged };
  }
  return { record: undefined, forged };
}
