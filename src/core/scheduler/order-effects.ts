import type { TickDraft } from "./tick-draft.js";
import type { ItemFacts } from "./tick-facts.js";
import type { PlannedEffect } from "./tick-plan.js";

/**
 * The plan's effects as apply runs them: one snapshot per item (the first), and one status comment
 * per item (at its last place, rendering the record as the plan leaves it).
 */
export function orderEffects(draft: Pick<TickDraft, "current" | "writes" | "effects">, byN: ReadonlyMap<number, ItemFacts>, waitingReason: (n: number) => string | undefined): PlannedEffect[] {
  const { current, writes, effects } = draft;
  // Status comments follow every record this tick moved (one render per item, the last state) —
  // where the item has one, or this record calls for one (`statusCalledFor`): then the writer whose
  // batch won posts it if it is not there. An item on the happy path has none and gets no effect.
  // A record written before Bosun kept that fact (`statusComment` unknown) is followed as it was:
  // its comment, posted at its approval, is edited, and created only by an approval's or a grant's winner.
  const lastStatus = new Map<number, number>();
  const creates = new Set<number>();
  const firsts = new Set<number>();
  effects.forEach((e, i) => {
    if (e.kind !== "status") return;
    lastStatus.set(e.n, i);
    if (e.create) creates.add(e.n);
    if (e.first === true) firsts.add(e.n);
  });
  const firstSnapshot = new Map<number, number>();
  effects.forEach((e, i) => {
    if (e.kind === "snapshot" && !firstSnapshot.has(e.n)) firstSnapshot.set(e.n, i);
  });
  const statusOf = (e: Extract<PlannedEffect, { kind: "status" }>): PlannedEffect | undefined => {
    const record = current.get(e.n) ?? e.record;
    if (record.statusComment === false) return undefined;
    const create = record.statusComment === true ? writes.has(e.n) : creates.has(e.n);
    return withExtras({ ...e, record, create, first: firsts.has(e.n) }, byN.get(e.n), waitingReason(e.n));
  };
  return effects.filter((e, i) => (e.kind !== "status" || lastStatus.get(e.n) === i) && (e.kind !== "snapshot" || firstSnapshot.get(e.n) === i)).flatMap((e) => (e.kind === "status" ? (statusOf(e) ?? []) : [e]));
}

/** A status effect with what the tick read about the item's pull request, gate and wait. */
function withExtras(e: Extract<PlannedEffect, { kind: "status" }>, item: ItemFacts | undefined, waiting: string | undefined): PlannedEffect {
  const pull = item?.pull;
  return { ...e, extras: { ...e.extras, ...(pull === undefined ? {} : { pull: { number: pull.number, state: pull.state } }), ...(e.extras.gate === undefined && item?.gate !== undefined ? { gate: item.gate } : {}), ...(waiting === undefined ? {} : { waiting }), ...(item?.worker?.kind === "ended" && item.worker.url !== undefined ? { run: item.worker.url } : {}) } };
}
