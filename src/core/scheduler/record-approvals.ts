import { approved, invalid, withdrawn } from "../claims/record-transitions.js";
import type { TickDraft } from "./tick-draft.js";
import type { TickFacts } from "./tick-facts.js";

/**
 * The plan's first stage: approvals recorded once each (the batch's compare-and-swap makes "once"
 * hold across replicas and redeliveries), withdrawn when the label or the issue goes. Answers the
 * items whose approval was taken in now: their hold label goes.
 */
export function recordApprovals(facts: TickFacts, draft: TickDraft): Set<number> {
  const { now, holder } = facts;
  const L = facts.config.labels;
  const { current, effects, view, title, write } = draft;
  const clearHold = new Set<number>();
  for (const item of facts.items) {
    const r = current.get(item.n);
    if (item.forged !== undefined) view.notes.push({ n: item.n, title: title(item), note: `its claim ref points at a commit not written by Bosun (${item.forged.signedBy === undefined ? "unsigned" : `signed for ${item.forged.signedBy}`}); it is ignored and will be written over` });
    const issue = item.issue;
    if (issue === undefined && r === undefined) continue;
    const labelled = issue?.labels.some((l) => l.toLowerCase() === L.ready.toLowerCase()) === true;
    const approval = item.approval;
    const standing = issue?.open === true && labelled && approval?.kind !== "withdrawn" && approval?.kind !== "none";
    if (!standing) {
      if (r !== undefined && (r.state === "approved" || r.state === "released" || r.state === "invalid")) {
        const next = withdrawn(r, holder, now);
        write(item, next);
        effects.push({ kind: "status", n: item.n, record: next, extras: {}, create: false });
        view.landed.push({ n: item.n, title: title(item), disposition: "refuse", summary: issue?.open === true ? "the approval was withdrawn" : "the issue was closed" });
      }
      continue;
    }
    if (approval === undefined || issue === undefined) continue;
    if (approval.kind === "refused") {
      if (r?.approval?.id !== approval.approval.id) view.notes.push({ n: item.n, title: title(item), note: `the approval by ${approval.approval.by} does not count: ${approval.why}` });
      continue;
    }
    if (approval.kind !== "approved" || r?.approval?.id === approval.approval.id) continue;
    if (r !== undefined && (r.state === "held" || r.state === "review" || r.state === "merged")) {
      view.notes.push({ n: item.n, title: title(item), note: `approved again by ${approval.approval.by} while its work is under way: the new approval is taken in when that work ends` });
      continue;
    }
    const editedAt = approval.bodyEditedAt;
    if (editedAt === undefined) {
      view.notes.push({ n: item.n, title: title(item), note: `the approval by ${approval.approval.by} is not taken in yet: when the issue was last edited could not be read with its text (the next tick asks again)` });
      continue;
    }
    clearHold.add(item.n);
    // GitHub's times are whole seconds: an edit in the approval's own second may have followed it.
    if (editedAt !== null && editedAt >= approval.approval.at) {
      // The text in the issue now is not the one approved (a late or reordered webhook, a slow
      // sweep): record the approval without a brief, so nothing is frozen and nothing runs, and
      // say on the issue that it needs approving again.
      const next = approved(r, r?.key ?? `task:${item.n}`, holder, now, approval.approval, undefined, item.floor);
      write(item, next);
      effects.push({ kind: "status", n: item.n, record: next, extras: {}, create: true, first: r === undefined });
    } else if (issue.brief.ok) {
      const next = approved(r, issue.brief.brief.claim_key, holder, now, approval.approval, { hash: issue.brief.hash, id: issue.brief.brief.id }, item.floor);
      write(item, next);
      effects.push({ kind: "snapshot", n: item.n, brief: issue.brief.brief, approval: approval.approval, first: r === undefined }, { kind: "status", n: item.n, record: next, extras: {}, create: true, first: r === undefined });
    } else {
      const next = invalid(r, r?.key ?? `task:${item.n}`, holder, now, approval.approval, item.floor);
      write(item, next);
      effects.push({ kind: "problems", n: item.n, problems: issue.brief.problems, approval: approval.approval });
    }
  }
  return clearHold;
}
