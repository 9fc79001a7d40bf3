import type { ClaimRecord } from "../claims/claim-record.js";
import type { UnstampedEvent } from "../journal/journal-emitter.js";
import { markStatus, statusCalledFor } from "./status-comment.js";
import type { ItemFacts, TickFacts } from "./tick-facts.js";
import type { PlannedEffect, PlannedWrite, TickView } from "./tick-plan.js";

type Mutable<T> = { -readonly [K in keyof T]: T[K] extends ReadonlyArray<infer E> ? E[] : T[K] };

/**
 * A tick's plan while `planTick` builds it: every item's record as the plan leaves it so far, the
 * writes, effects and journal events so far, and the view. Each stage of the plan (approvals, the
 * step, merges, mirrors) reads what the stages before it left here.
 */
export interface TickDraft {
  readonly current: Map<number, ClaimRecord | undefined>;
  readonly writes: Map<number, PlannedWrite>;
  readonly effects: PlannedEffect[];
  readonly journal: UnstampedEvent[];
  readonly view: Mutable<Omit<TickView, "idle">>;
  /** How the view names an item: its issue's title, else its number. */
  readonly title: (item: Pick<ItemFacts, "n" | "issue">) => string;
  /**
   * Plans `record` as the item's next. `grant`: the write grants (a grant stays one once planned);
   * `say`: the record calls for a status comment for a reason its state does not carry (a changed brief).
   */
  readonly write: (item: ItemFacts, record: ClaimRecord, grant?: boolean, say?: boolean) => void;
}

/** An empty draft over the records the tick read. */
export function startDraft(facts: TickFacts): TickDraft {
  const current = new Map<number, ClaimRecord | undefined>(facts.items.map((i) => [i.n, i.record]));
  const writes = new Map<number, PlannedWrite>();
  return {
    current,
    writes,
    effects: [],
    journal: [],
    view: { queue: [], inFlight: [], review: [], needsHuman: [], waiting: [], invalid: [], notes: [], landed: [] },
    title: (item) => item.issue?.title ?? `#${item.n}`,
    write: (item, record, grant = false, say = false) => {
      const next = markStatus(current.get(item.n), record, item.floor, say || statusCalledFor(record));
      current.set(item.n, next);
      writes.set(item.n, { n: item.n, ref: item.ref, from: item.sha, next, grant: grant || writes.get(item.n)?.grant === true });
    },
  };
}
