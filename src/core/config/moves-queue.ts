import type { BosunConfig } from "./bosun-config.js";
import { POOL_LABEL_PREFIX, PRIORITY_LABEL } from "./labels.js";

/**
 * Whether adding or removing this label can move the scheduler's queue: Bosun's own labels as the
 * configuration names them (except `ready`, which is the intake's), priorities and pools.
 */
export function labelMovesQueue(label: string, config: BosunConfig): boolean {
  const { ready: _intakes, ...scheduling } = config.labels;
  return (Object.values(scheduling) as string[]).includes(label) || PRIORITY_LABEL.test(label) || label.startsWith(POOL_LABEL_PREFIX);
}
