import type { ClaimToken } from "../../../core/claims/claim-token.js";
import type { DispatchConfig } from "../../../core/config/bosun-config.js";

/** What a dispatched agent (or operator) is told: the item, its epoch and lease, the frozen brief, and how to land it. */
export function dispatchInstruction(n: number, token: ClaimToken, hash: string, dispatch: DispatchConfig): string {
  const mention = dispatch.kind === "comment" && dispatch.mention !== undefined ? `${dispatch.mention} ` : "";
  const extra = dispatch.kind === "comment" && dispatch.instruction !== undefined ? `${dispatch.instruction} ` : "";
  return `${mention}Bosun claimed #${n} for you (epoch ${token.epoch}, lease until ${new Date(token.expiresAt).toISOString()}). Work only on the brief in the snapshot above (hash \`${hash}\`). ${extra}Open one pull request that says \`Closes #${n}\`: the gate judges it against that brief, and its merge ends the item.`;
}
