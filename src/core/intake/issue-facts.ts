import type { Band, Brief } from "../brief/brief.js";
import type { BosunConfig } from "../config/bosun-config.js";
import { POOL_LABEL_PREFIX, PRIORITY_LABEL } from "../config/labels.js";

/**
 * An issue's band and pool: a `P0`..`P4` label wins over the brief's priority, and a
 * `pool/<name>` label naming a configured pool wins over the brief's pool (maintainers re-rank
 * with labels without re-approving the brief). With several labels of a kind, the highest band
 * and the first configured pool count.
 */
export function issueFacts(labels: readonly string[], brief: Brief, config: BosunConfig): { band: Band; pool: string } {
  let band: Band | undefined;
  let pool: string | undefined;
  for (const label of labels) {
    const p = PRIORITY_LABEL.exec(label);
    if (p !== null) {
      const b = Number(p[1]) as Band;
      band = band === undefined ? b : (Math.min(band, b) as Band);
    }
    if (pool === undefined && label.startsWith(POOL_LABEL_PREFIX)) {
      const name = label.slice(POOL_LABEL_PREFIX.length);
      if (config.pools[name] !== undefined) pool = name;
    }
  }
  return { band: band ?? brief.priority, pool: pool ?? brief.pool };
}
