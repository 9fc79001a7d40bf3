import type { ItemEvidence } from "../../core/gate/resolve-trusted-item.js";
import { nameItem } from "../../core/gate/resolve-trusted-item.js";
import type { ClaimReader, ItemClaim } from "./gate-github.js";

/** Where claim refs live unless configured (`claims.ref_prefix` in .github/bosun.yml). */
export const DEFAULT_CLAIM_PREFIX = "refs/bosun/claims/";

/** The item a pull request is for, from Bosun's record; or why that cannot be told. */
export type DispatchedItem =
  | { readonly ok: true; readonly kind: "issue"; readonly issue: number; readonly how: string; readonly claim: ItemClaim | undefined; readonly claimRef: string }
  | { readonly ok: true; readonly kind: "brief"; readonly briefId: string; readonly how: string }
  | { readonly ok: false; readonly reason: string };

/**
 * Names the item (resolve-trusted-item.ts) and reads its claim record. An item only the PR's
 * `Closes #n` names counts when a claim record shows Bosun dispatched it (an agent that names its
 * own branch, e.g. Copilot's `copilot/fix-12`); otherwise the link alone is no record at all.
 */
export async function findDispatchedItem(reader: ClaimReader, evidence: ItemEvidence, prefix = DEFAULT_CLAIM_PREFIX): Promise<DispatchedItem> {
  const named = nameItem(evidence);
  switch (named.kind) {
    case "none":
    case "conflict":
      return { ok: false, reason: named.reason };
    case "brief":
      return { ok: true, kind: "brief", briefId: named.briefId, how: named.how };
    case "issue":
    case "hinted": {
      const claimRef = `${prefix}${named.issue}`;
      const claim = await reader.claimRecord(claimRef);
      if (named.kind === "hinted" && claim === undefined) {
        return { ok: false, reason: `the pull request links #${named.issue}, but there is no claim record on ${claimRef}: a link alone never chooses the brief` };
      }
      return { ok: true, kind: "issue", issue: named.issue, how: named.kind === "hinted" ? `${named.how}, confirmed by the claim record on ${claimRef}` : named.how, claim, claimRef };
    }
  }
}
