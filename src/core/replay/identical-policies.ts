import type { PolicyMetrics } from "./policy-metrics.js";

/**
 * Groups of policies whose every reported figure is equal (two or more names per group, in
 * report order): on this trace they are indistinguishable, and a reader comparing them should be
 * told so rather than left to spot it in the digits.
 */
export function identicalPolicies(policies: readonly PolicyMetrics[]): string[][] {
  const groups = new Map<string, string[]>();
  for (const p of policies) {
    const { policy, ...figures } = p;
    const key = JSON.stringify(figures);
    groups.set(key, [...(groups.get(key) ?? []), policy]);
  }
  return [...groups.values()].filter((g) => g.length > 1);
}
