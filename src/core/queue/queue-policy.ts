import type { QueueItem } from "./queue-item.js";
import type { QueuePolicy } from "./queue-policy-type.js";
import { fair } from "./fair-policy.js";

export const POLICY_NAMES = ["oldest", "priority", "hybrid", "index", "fair"] as const;
export type PolicyName = (typeof POLICY_NAMES)[number];
export const DEFAULT_POLICY: PolicyName = "hybrid";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Horizons that scale the index's secondary features to [0, 1]. */
export const INDEX_SCALES = { dueHorizonMs: 14 * DAY, ageHorizonMs: 7 * DAY, unblocksCap: 5 } as const;
/** Weights of the index (DESIGN.md): they sum to 0.24, below the 0.25 between bands. */
export const INDEX_WEIGHTS = { band: 0.25, due: 0.1, unblocking: 0.08, age: 0.06 } as const;

const clamp01 = (x: number): number => (x < 0 ? 0 : x > 1 ? 1 : x);
const byId = (a: QueueItem, b: QueueItem): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const oldestFirst = (a: QueueItem, b: QueueItem): number => a.createdAt - b.createdAt || byId(a, b);

/** The index's features, each in [0, 1]. */
export function indexFeatures(item: QueueItem, now: number): { due: number; unblocking: number; age: number } {
  return {
    due: item.due === undefined ? 0 : clamp01(1 - (item.due - now) / INDEX_SCALES.dueHorizonMs),
    unblocking: Math.min(item.unblocks, INDEX_SCALES.unblocksCap) / INDEX_SCALES.unblocksCap,
    age: clamp01((now - item.createdAt) / INDEX_SCALES.ageHorizonMs),
  };
}

/** The index score: higher goes first. Bands are 0.25 apart and the rest sums below 0.25. */
export function indexScore(item: QueueItem, now: number): number {
  const f = indexFeatures(item, now);
  return (4 - item.band) * INDEX_WEIGHTS.band + INDEX_WEIGHTS.due * f.due + INDEX_WEIGHTS.unblocking * f.unblocking + INDEX_WEIGHTS.age * f.age;
}

const hours = (ms: number): string => `${(ms / HOUR).toFixed(1)}h`;

export const oldest: QueuePolicy = {
  name: "oldest",
  timeDependent: false,
  compare: (a, b) => oldestFirst(a, b),
  explain: (item, now) => `waiting ${hours(now - item.createdAt)}`,
};

export const priority: QueuePolicy = {
  name: "priority",
  timeDependent: false,
  compare: (a, b) => a.band - b.band || b.createdAt - a.createdAt || byId(a, b),
  explain: (item) => `P${item.band}, newest first within the band`,
};

export const hybrid: QueuePolicy = {
  name: "hybrid",
  timeDependent: false,
  compare: (a, b) => a.band - b.band || oldestFirst(a, b),
  explain: (item, now) => `P${item.band}, waiting ${hours(now - item.createdAt)}`,
};

export const index: QueuePolicy = {
  name: "index",
  timeDependent: true,
  compare: (a, b, now) => indexScore(b, now) - indexScore(a, now) || oldestFirst(a, b),
  explain: (item, now) => {
    const f = indexFeatures(item, now);
    return `P${item.band}, score ${indexScore(item, now).toFixed(3)} (due ${f.due.toFixed(2)}, unblocks ${f.unblocking.toFixed(2)}, age ${f.age.toFixed(2)})`;
  },
};

export const policies: Readonly<Record<PolicyName, QueuePolicy>> = { oldest, priority, hybrid, index, fair };

/** Looks a policy up by name; undefined for an unknown name so the caller can say which names exist. */
export function policyByName(name: string): QueuePolicy | undefined {
  return (POLICY_NAMES as readonly string[]).includes(name) ? policies[name as PolicyName] : undefined;
}
