import type { ClaimToken } from "./claim-token.js";

/** Mints a token. Only claim stores call this (lint enforces it): everyone else gets tokens from `claim`. */
export function mintClaimToken(fields: { key: string; holder: string; epoch: number; expiresAt: number }): ClaimToken {
  return Object.freeze({ ...fields }) as ClaimToken;
}
