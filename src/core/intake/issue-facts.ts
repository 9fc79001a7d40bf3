import type { Band, Brief } from "../brief/brief.js";
import type { BosunConfig } from "../config/bosun-config.js";
import { POOL_LABEL_PREFIX, PRIORITY_LABEL } from "../config/labels.js";

/** The scheduling facts of an issue: its band and its pool. */
export interface IssueFacts {
  readonly band: Band;
  readonly pool: string;
}

/**
 * Band and pool of a queued issue: a `P0`..`P4` label wins over the brief's priority (the highest
 * band when several are set), and a `pool/<name>` label naming a configured pool wins over the
 * brief's pool (the first by name when several are set). Labels can be changed by triagers without
 * re-approving the brief, which is the point: ordering is theirs, content is the writer's.
 *
 * @example issueFacts(["P0", "pool/gpu"], brief, config) // {band: 0, pool: "gpu"} when gpu is configured
 */
export function issueFacts(labels: readonly string[], brief: Pick<Brief, "priority" | "pool">, config: BosunConfig): IssueFacts {
  let band: Band | undefined;
  const pools: string[] = [];
  for (const label of labels) {
    const p = PRIORITY_LABEL.exec(label);
    if (p !== null) {
      const b = Number(p[1]) as Band;
      if (band === undefined || b < band) band = b;
    } else if (label.startsWith(POOL_LABEL_PREFIX)) {
      const name = label.slice(POOL_LABEL_PREFIX.length);
      // A label naming no configured pool is someone's typo: it must not strand the item.
      if (Object.hasOwn(config.pools, name)) pools.push(name);
    }
  }
  pools.sort();
  return { band: band ?? brief.priority, pool: pools[0] ?? brief.pool };
}
