import type { Trace, TraceItem } from "./trace.js";

/**
 * A trace as flat typed arrays indexed 0..n-1: what the simulation's hot loop reads. Built once
 * per trace and shared by every policy's run.
 */
export interface CompiledTrace {
  readonly items: readonly TraceItem[];
  readonly n: number;
  readonly arrival: Float64Array;
  readonly duration: Float64Array;
  /** What each item's runs cost (US dollars); NaN where the trace does not say. */
  readonly cost: Float64Array;
  readonly band: Uint8Array;
  readonly pool: Int32Array;
  readonly poolNames: readonly string[];
  readonly kind: Int32Array;
  readonly kindNames: readonly string[];
  /** How many blockers each item waits for. */
  readonly blockerCount: Int32Array;
  /** Dependents of item i are dependents[dependentStart[i] .. dependentStart[i+1]). */
  readonly dependentStart: Int32Array;
  readonly dependents: Int32Array;
  /** Item indices by arrival, then by position in the trace (stable, so replays are deterministic). */
  readonly byArrival: Int32Array;
}

function intern(names: string[], map: Map<string, number>, name: string): number {
  let i = map.get(name);
  if (i === undefined) {
    i = names.length;
    names.push(name);
    map.set(name, i);
  }
  return i;
}

/** Flattens a trace for the simulation. Blockers must be ids of the trace (buildTrace ensures it). */
export function compileTrace(trace: Pick<Trace, "items">): CompiledTrace {
  const items = trace.items;
  const n = items.length;
  const arrival = new Float64Array(n);
  const duration = new Float64Array(n);
  const cost = new Float64Array(n);
  const band = new Uint8Array(n);
  const pool = new Int32Array(n);
  const kind = new Int32Array(n);
  const blockerCount = new Int32Array(n);
  const poolNames: string[] = [];
  const kindNames: string[] = [];
  const pools = new Map<string, number>();
  const kinds = new Map<string, number>();
  const at = new Map<string, number>();
  items.forEach((item, i) => at.set(item.id, i));
  const dependentStart = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) {
    const item = items[i] as TraceItem;
    arrival[i] = item.arrival;
    duration[i] = item.duration;
    cost[i] = item.cost ?? Number.NaN;
    band[i] = item.band;
    pool[i] = intern(poolNames, pools, item.pool);
    kind[i] = intern(kindNames, kinds, item.kind);
    blockerCount[i] = item.blockedBy.length;
    for (const b of item.blockedBy) {
      const j = at.get(b);
      if (j === undefined) throw new Error(`compileTrace: ${item.id} is blocked by '${b}', which is not in the trace`);
      (dependentStart[j + 1] as number)++;
    }
  }
  for (let i = 0; i < n; i++) dependentStart[i + 1] = (dependentStart[i + 1] as number) + (dependentStart[i] as number);
  const dependents = new Int32Array(dependentStart[n] as number);
  const fill = dependentStart.slice(0, n);
  for (let i = 0; i < n; i++) {
    for (const b of (items[i] as TraceItem).blockedBy) {
      const j = at.get(b) as number;
      dependents[(fill[j] as number)++] = i;
    }
  }
  const byArrival = Int32Array.from({ length: n }, (_, i) => i).sort((a, b) => (arrival[a] as number) - (arrival[b] as number) || a - b);
  return { items, n, arrival, duration, cost, band, pool, poolNames, kind, kindNames, blockerCount, dependentStart, dependents, byArrival };
}
