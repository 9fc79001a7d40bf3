import type { ApprovalFacts } from "../../../core/scheduler/tick-facts.js";

/** What the latest `labeled`/`unlabeled` event of the approval label says, with whether its actor may approve. */
export async function approvalOf(latest: { readonly id: number; readonly event: string; readonly actor: string; readonly at: number }, mayApprove: (login: string) => Promise<string | undefined>): Promise<ApprovalFacts> {
  if (latest.event === "unlabeled") return { kind: "withdrawn", by: latest.actor, at: latest.at };
  const approval = { id: latest.id, by: latest.actor, at: latest.at };
  const why = await mayApprove(latest.actor);
  return why === undefined ? { kind: "approved", approval } : { kind: "refused", approval, why };
}
