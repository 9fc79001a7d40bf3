import type { BosunConfig } from "../../core/config/bosun-config.js";
import type { ConfigProblem } from "../../core/config/parse-config.js";
import type { DashboardState } from "../../core/dashboard/dashboard-state.js";
import type { JournalEvent } from "../../core/journal/journal-event.js";
import { fleetMetrics } from "../../core/metrics/fleet-metrics.js";
import { parseJournalLine } from "../../core/metrics/journal-record.js";
import { renderFleetMetrics } from "../../core/metrics/render-fleet-metrics.js";
import type { TickView } from "../../core/scheduler/tick-plan.js";

/** One recent landing as the dashboard lists it. */
export interface RecentLand {
  readonly issue: number;
  readonly title: string;
  readonly ok: boolean;
  readonly summary: string;
  readonly at: number;
}

/**
 * The dashboard from the tick's own view (docs/lifecycle.md): the same facts the tick decided
 * from, so it never says idle while anything is queued, held or in review.
 */
export function schedulerDashboardState(input: {
  readonly repo: string;
  readonly now: number;
  readonly config: BosunConfig;
  readonly problems: readonly ConfigProblem[];
  readonly view: TickView;
  readonly recentLands: readonly RecentLand[];
  /** The journal events this process wrote for the repository (for the fleet metrics). */
  readonly events?: readonly JournalEvent[];
}): DashboardState {
  const { config, view } = input;
  const held = view.waiting.filter((w) => w.reason === `labelled ${config.labels.hold}`);
  return {
    repo: input.repo,
    generatedAt: input.now,
    idle: view.idle,
    policy: config.policy,
    configProblems: input.problems.map((p) => ({ field: p.field, message: p.message })),
    pools: Object.entries(config.pools).map(([name, pool]) => ({
      name,
      size: pool.size,
      queue: (view.queue.find((q) => q.pool === name)?.items ?? []).map((q) => ({ issue: q.n, title: q.title, band: q.band, reason: q.reason })),
      inFlight: view.inFlight.filter((f) => f.pool === name).map((f) => ({ issue: f.n, title: f.title, holder: f.holder, epoch: f.epoch, leaseUntil: f.leaseUntil })),
    })),
    review: view.review.map((r) => ({ issue: r.n, title: r.title, pull: r.pull, state: r.state, ...(r.gate === undefined ? {} : { gate: r.gate }) })),
    waiting: view.waiting.filter((w) => !held.includes(w)).map((w) => ({ issue: w.n, title: w.title, reason: w.reason })),
    notes: view.notes.map((n) => ({ issue: n.n, title: n.title, note: n.note })),
    needsHuman: view.needsHuman.map((n) => ({ issue: n.n, title: n.title, reason: n.reason })),
    held: held.map((h) => ({ issue: h.n, title: h.title, reason: "held: tick to release it (its approved brief runs, never an edited text)" })),
    invalid: view.invalid.map((v) => ({ issue: v.n, title: v.title, problems: v.problems })),
    recentLands: input.recentLands,
    ...(view.budget === undefined ? {} : { budget: view.budget }),
    ...(view.paused === undefined ? {} : { paused: view.paused }),
    ...(input.events === undefined || input.events.length === 0 ? {} : { metrics: fleetMetricsSection(input.events) }),
  };
}

/** `bosun stats` over the events this process journalled (the App keeps no journal file), with what they cover. */
function fleetMetricsSection(events: readonly JournalEvent[]): { scope: string; text: string } {
  const records = events.flatMap((e, i) => {
    const parsed = parseJournalLine(JSON.stringify(e), i + 1);
    return parsed !== undefined && "record" in parsed ? [parsed.record] : [];
  });
  return { scope: `Over the last ${events.length} events this app process journalled (since ${events[0]?.t ?? "start"}): landings and costs read back from the claim records, gate verdicts from \`bosun/gate\` check runs the App posted.`, text: renderFleetMetrics(fleetMetrics(records)) };
}
