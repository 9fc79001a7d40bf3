import type { CostPerAcceptedTask } from "./cost-per-accepted-task.js";
import { costPerAcceptedTask } from "./cost-per-accepted-task.js";
import type { GateRejection } from "./gate-rejections.js";
import { classesByItem, gateRejections } from "./gate-rejections.js";
import type { JournalRecord } from "./journal-record.js";
import type { StopMix } from "./stop-mix.js";
import { stopMix } from "./stop-mix.js";

/** The window, in ms since the epoch: `since` inclusive, `until` exclusive; either may be open. */
export interface MetricsWindow {
  readonly since?: number;
  readonly until?: number;
}

/** The three numbers that tell a team whether the fleet is worth its cost (`bosun stats`). */
export interface FleetMetrics {
  readonly window: { readonly since: string | null; readonly until: string | null };
  /** Journal events inside the window. */
  readonly events: number;
  readonly stop_mix: StopMix;
  readonly gate_rejection_by_class: readonly GateRejection[];
  readonly cost: CostPerAcceptedTask;
}

/**
 * Fleet metrics over the events whose `t` falls in the window. Task classes are looked up over the
 * whole journal, since a class belongs to the task, not to the moment it was recorded.
 */
export function fleetMetrics(records: readonly JournalRecord[], window: MetricsWindow = {}): FleetMetrics {
  const inWindow = recordsIn(records, window);
  const iso = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());
  return {
    window: { since: iso(window.since), until: iso(window.until) },
    events: inWindow.length,
    stop_mix: stopMix(inWindow),
    gate_rejection_by_class: gateRejections(inWindow, classesByItem(records)),
    cost: costPerAcceptedTask(inWindow),
  };
}

/** The records whose `t` falls in the window. */
export function recordsIn(records: readonly JournalRecord[], window: MetricsWindow): JournalRecord[] {
  return records.filter((r) => (window.since === undefined || r.t >= window.since) && (window.until === undefined || r.t < window.until));
}
