import type { Band } from "../../../src/core/brief/brief.js";
import { buildTrace } from "../../../src/core/replay/build-trace.js";
import { compileTrace } from "../../../src/core/replay/compile-trace.js";
import type { CompiledTrace } from "../../../src/core/replay/compile-trace.js";
import type { RawTraceItem, Trace } from "../../../src/core/replay/trace.js";

export const H = 3_600_000;
export const T0 = Date.UTC(2026, 0, 1);

export interface ItemSpec {
  readonly at: number;
  readonly dur: number;
  readonly band?: Band;
  readonly kind?: string;
  readonly pool?: string;
  readonly blockedBy?: readonly string[];
  readonly dueAt?: number;
  /** What the item's runs cost (US dollars). */
  readonly usd?: number;
}

/** A raw item with hours relative to T0 and an observed duration, so no estimate is involved. */
export function raw(id: string, s: ItemSpec): RawTraceItem {
  return {
    id,
    source: "test",
    line: 1,
    arrival: T0 + s.at * H,
    band: s.band ?? 2,
    pool: s.pool ?? "default",
    blockedBy: s.blockedBy ?? [],
    kind: s.kind ?? "task",
    observed: s.dur * H,
    ...(s.dueAt === undefined ? {} : { due: T0 + s.dueAt * H }),
    ...(s.usd === undefined ? {} : { cost: s.usd }),
  };
}

/** A trace from item specs keyed by id. */
export function traceOf(items: Record<string, ItemSpec>): Trace {
  return buildTrace([{ items: Object.entries(items).map(([id, s]) => raw(id, s)), problems: [], source: "test", format: "test" }]);
}

export const compiled = (items: Record<string, ItemSpec>): CompiledTrace => compileTrace(traceOf(items));
