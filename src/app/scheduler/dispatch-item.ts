import type { BosunConfig } from "../../core/config/bosun-config.js";
import type { ClaimToken } from "../../core/claims/claim-token.js";
import type { Candidate, TickDeps } from "./reconcile-tick.js";

/** Claim granted: mirror it in a label, then hand the item to the pool's agent. */
export async function dispatchItem(deps: TickDeps, c: Candidate, token: ClaimToken, dispatch: BosunConfig["pools"][string]["dispatch"], tier: string): Promise<void> {
  const { github, config } = deps;
  const n = c.issue.number;
  const stamp = new Date(deps.clock.now()).toISOString();
  deps.journal.append({ v: 1, t: stamp, event: "CLAIM", item: String(n), holder: token.holder, epoch: token.epoch });
  await github.addLabels(n, [config.labels.claimed]);
  deps.journal.append({ v: 1, t: stamp, event: "DISPATCH", item: String(n), epoch: token.epoch, attempt: token.epoch, tier });
  const mention = dispatch.kind === "comment" && dispatch.mention !== undefined ? `${dispatch.mention} ` : "";
  const instruction = `${mention}Bosun claimed #${n} for you (epoch ${token.epoch}, lease until ${new Date(token.expiresAt).toISOString()}). Work only on the brief in the snapshot above (hash \`${c.hash}\`). ${dispatch.kind === "comment" && dispatch.instruction !== undefined ? `${dispatch.instruction} ` : ""}When you are done, comment \`/bosun land ok <what you did>\` (or \`retry\`, \`refuse\`, \`human\` with a reason).`;
  await github.dispatch(n, dispatch, { item: String(n), epoch: token.epoch, briefHash: c.hash, instruction });
}

