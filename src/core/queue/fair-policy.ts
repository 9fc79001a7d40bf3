import type { DurationEstimates, EstimatedQueueItem, QueuePolicy } from "./queue-policy-type.js";

const HOUR = 3_600_000;

/**
 * The fairness coefficient of `fair`: the head start, in mean job lengths, that each band above
 * P4 gives an item (P0 starts 4 × 0.25 = 1 mean job length ahead). Chosen by replay on the shared
 * events trace and generated seeds 1–3, checked on seeds 4–9 (docs/replay.md, "A policy that wins
 * without starving anyone").
 */
export const FAIR_HEAD_START = 0.25;

/** With no estimates every item is one hour long: the order is then band head start + FIFO. */
const UNKNOWN: DurationEstimates = { expected: (item) => item.expectedMs ?? HOUR, mean: () => HOUR };

/**
 * The `fair` score, highest first: (wait + head start) ÷ expected length, where the head start is
 * `FAIR_HEAD_START × (4 − band)` mean job lengths. It is a response ratio: the wait counts the same
 * for every band, so every item's score grows without bound while it waits and nobody starves —
 * an item outranks any newcomer once it has waited (4 × head start × mean) × its length ÷ the
 * newcomer's — while short items and high bands go first when waits are equal.
 */
export function fairScore(item: EstimatedQueueItem, now: number, estimates: DurationEstimates = UNKNOWN): number {
  // Not clamped at 0: a heap may compare at an older "now" than an item's arrival, and the
  // score must stay linear in time so that two items keep their order whatever "now" is used.
  const wait = now - item.createdAt;
  return (wait + FAIR_HEAD_START * (4 - item.band) * estimates.mean()) / Math.max(estimates.expected(item), 1);
}

/** `fair` over the given duration estimates (the replay feeds its running class means). */
export function fairPolicy(estimates: DurationEstimates = UNKNOWN): QueuePolicy {
  return {
    name: "fair",
    withEstimates: (e) => fairPolicy(e),
    // With estimates the ratio of two waits changes as time passes; without, the order is fixed.
    timeDependent: estimates !== UNKNOWN,
    compare: (a, b, now) => fairScore(b, now, estimates) - fairScore(a, now, estimates) || a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    explain: (item, now) => {
      const head = FAIR_HEAD_START * (4 - item.band) * estimates.mean();
      return `P${item.band}, waited ${((now - item.createdAt) / HOUR).toFixed(1)}h + head start ${(head / HOUR).toFixed(2)}h, ÷ expected ${(estimates.expected(item) / HOUR).toFixed(2)}h`;
    },
  };
}

/**
 * The live queue's `fair`. Without estimates every item counts one hour (the order is then the
 * band head start + arrival order); the local engine binds it to the running mean duration of each
 * task class it has seen run (`withEstimates`, src/core/engine/class-durations.ts), and the GitHub
 * tick to the lengths its claim records show (grant to landing): one order on both faces.
 */
export const fair: QueuePolicy = fairPolicy();
