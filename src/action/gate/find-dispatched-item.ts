import type { ItemEvidence } from "../../core/gate/resolve-trusted-item.js";
import { nameItem } from "../../core/gate/resolve-trusted-item.js";
import { normalizeLogin } from "../../core/separation/identity.js";
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
 * own branch, e.g. Copilot's `copilot/fix-12`); otherwise the link alone is no record at all. A
 * claim commit counts only when GitHub signed it for the bot (`botLogin`).
 */
export async function findDispatchedItem(reader: ClaimReader, evidence: ItemEvidence, options: { readonly prefix?: string; readonly botLogin: string }): Promise<DispatchedItem> {
  const prefix = options.prefix ?? DEFAULT_CLAIM_PREFIX;
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
      // Claim refs sit outside branch rulesets: whoever can push can write one. Only a commit GitHub
      // signed for the bot is Bosun's record.
      if (claim !== undefined && claim.signedBy !== normalizeLogin(options.botLogin)) {
        return { ok: false, reason: `the claim commit ${claim.sha.slice(0, 12)} on ${claimRef} was not written by ${options.botLogin} (${claim.signedBy === undefined ? "its signature is not verified by GitHub" : `GitHub signed it for ${claim.signedBy}`}): it is not Bosun's record` };
      }
      if (named.kind === "hinted" && claim === undefined) {
        return { ok: false, reason: `the pull request links #${named.issue}, but there is no claim record on ${claimRef}: a link alone never chooses the brief` };
      }
      return { ok: true, kind: "issue", issue: named.issue, how: named.kind === "hinted" ? `${named.how}, confirmed by the claim record on ${claimRef}` : named.how, claim, claimRef };
    }
  }
}
