import type { ItemEvidence } from "../../core/gate/resolve-trusted-item.js";
import { nameItem } from "../../core/gate/resolve-trusted-item.js";
import { normalizeLogin } from "../../core/separation/identity.js";
import type { ClaimReader, ItemClaim } from "../../ports/gate-github.js";

/** Where claim refs live unless configured (`claims.ref_prefix` in .github/bosun.yml). */
export const DEFAULT_CLAIM_PREFIX = "refs/bosun/claims/";

/** The item a pull request is for, from Bosun's record; or why that cannot be told. */
export type DispatchedItem =
  | { readonly ok: true; readonly kind: "issue"; readonly issue: number; readonly how: string; readonly claim: ItemClaim; readonly claimRef: string }
  | { readonly ok: true; readonly kind: "brief"; readonly briefId: string; readonly how: string }
  | { readonly ok: false; readonly reason: string };

/**
 * Names the item (resolve-trusted-item.ts) and reads its claim record. Whatever names the item —
 * a dispatch input, the branch `bosun/<n>-…`, or the PR's `Closes #n` — is only a hint: anyone who
 * can push can name a branch, and anyone with write access can dispatch a workflow. The item is
 * Bosun's only when a claim record for it exists and GitHub signed its commit for the bot
 * (`botLogin`). A branch `bosun/<brief-id>` names a file on the base branch, which no claim
 * records: it counts only when the repository opts in (`trustBriefBranches`).
 */
export async function findDispatchedItem(reader: ClaimReader, evidence: ItemEvidence, options: { readonly prefix?: string; readonly botLogin: string; readonly trustBriefBranches?: boolean }): Promise<DispatchedItem> {
  const prefix = options.prefix ?? DEFAULT_CLAIM_PREFIX;
  const named = nameItem(evidence);
  switch (named.kind) {
    case "none":
    case "conflict":
      return { ok: false, reason: named.reason };
    case "brief":
      if (options.trustBriefBranches !== true) return { ok: false, reason: `${named.how} names brief ${named.briefId}, but no claim record shows Bosun dispatched it, and anyone who can push can name a branch: set input trust-brief-branches to true to judge bosun/<brief-id> branches by briefs/<id>.yml at the base` };
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
      if (claim === undefined) {
        return { ok: false, reason: `${named.how} names #${named.issue}, but there is no claim record on ${claimRef}: a branch name, a link or a dispatch input alone never chooses the brief` };
      }
      return { ok: true, kind: "issue", issue: named.issue, how: `${named.how}, confirmed by the claim record on ${claimRef}`, claim, claimRef };
    }
  }
}
