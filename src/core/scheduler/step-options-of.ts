import type { BosunConfig } from "../config/bosun-config.js";
import type { StepOptions } from "../engine/step-state.js";
import { ENGINE_DEFAULTS } from "../engine/engine-options.js";

/** The one step's rules as a repository's configuration sets them: its attempts and pools, the engine's one backoff. */
export function stepOptionsOf(config: BosunConfig): StepOptions {
  return { maxAttempts: config.attempts, backoffMs: ENGINE_DEFAULTS.backoffMs, poolSize: (pool) => config.pools[pool]?.size ?? 0, pools: Object.keys(config.pools) };
}
