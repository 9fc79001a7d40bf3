import type { BosunConfig } from "../../core/config/bosun-config.js";
import type { ConfigProblem } from "../../core/config/parse-config.js";
import type { DashboardState } from "../../core/dashboard/dashboard-state.js";
import type { TickReport } from "../scheduler/reconcile-tick.js";
import type { JournalEvent } from "../../core/journal/journal-event.js";
import { fleetMetrics } from "../../core/metrics/fleet-metrics.js";
import { parseJournalLine } from "../../core/metrics/journal-record.js";
import { renderFleetMetrics } from "../../core/metrics/render-fleet-metrics.js";
import type { GateVerdicts } from "./gate-check-events.js";

export interface RecentLand {
  readonly issue: number;
  readonly title: string;
  readonly ok: boolean;
  /** What the landing did with the item; `human` and `refuse` leave it to a person. */
  readonly disposition?: "ok" | "retry" | "refuse" | "human";
  readonly summary: string;
  readonly at: number;
}

/** The dashboard as the scheduler's latest tick sees the repository. */
export function schedulerDashboardState(input: {
  repo: string;
  now: number;
  config: BosunConfig;
  problems: readonly ConfigProblem[];
  report: TickReport;
  recentLands: readonly RecentLand[];
  shadow: { ticks: number; differing: number };
  /** Claim denials by reason, counted by the scheduler's guard. */
  denials?: ReadonlyMap<string, number>;
  /** The journal events this process saw for the repository. */
  events?: readonly JournalEvent[];
  /** The gate's verdicts read back from its `bosun/gate` check runs (see gate-check-events.ts). */
  gates?: GateVerdicts;
  /** What the `bosun/work` records read said: the cost source of `workflow` runs (see observe-landings.ts). */
  workRecords?: { readonly read: number; readonly ignored: ReadonlyMap<string, number> };
}): DashboardState {
  const { config, report } = input;
  const labelled = (label: string) => report.skipped.filter((s) => s.reason === `labelled ${label}`);
  // An item is listed once: in flight, it is not also in its pool's queue.
  const flying = new Set(report.inFlight.map((f) => f.issue));
  return {
    repo: input.repo,
    generatedAt: input.now,
    idle: report.idle,
    policy: config.policy,
    configProblems: input.problems,
    pools: Object.entries(config.pools).map(([name, pool]) => ({
      name,
      size: pool.size,
      queue: (report.queue.find((q) => q.pool === name)?.items ?? []).filter((q) => !flying.has(q.issue)),
      inFlight: report.inFlight.filter((f) => f.pool === name).map((f) => ({ issue: f.issue, title: f.title, holder: f.holder, epoch: f.epoch, leaseUntil: f.leaseUntil })),
    })),
    needsHuman: needsHuman(labelled(config.labels.needsHuman), input.recentLands, new Set([...flying, ...report.skipped.map((s) => s.issue), ...report.queue.flatMap((q) => q.items.map((i) => i.issue))])),
    held: labelled(config.labels.hold).map((s) => ({ issue: s.issue, title: s.title, reason: "held: see the latest Bosun comment on the issue" })),
    invalid: labelled(config.labels.invalidBrief).map((s) => ({ issue: s.issue, title: s.title, problems: ["see the Bosun comment on the issue"] })),
    recentLands: input.recentLands,
    ...(config.shadow_policy === undefined ? {} : { shadow: { policy: config.shadow_policy, ticks: input.shadow.ticks, differing: input.shadow.differing } }),
    ...(input.denials === undefined || input.denials.size === 0 ? {} : { denials: Object.fromEntries(input.denials) }),
    ...(input.events === undefined || input.events.length === 0 ? {} : { metrics: fleetMetricsSection(input.events, input.gates, input.workRecords) }),
  };
}

/**
 * Who needs a human: queued items labelled so, and items this process landed to a human (their
 * landing took them out of the queue listing the tick reads), unless they are back in the queue.
 */
function needsHuman(labelled: ReadonlyArray<{ issue: number; title: string }>, lands: readonly RecentLand[], listed: ReadonlySet<number>): DashboardState["needsHuman"] {
  const rows = labelled.map((s) => ({ issue: s.issue, title: s.title, reason: "see the Landed section of its Bosun comment" }));
  const shown = new Set(rows.map((r) => r.issue));
  for (const l of lands) {
    if ((l.disposition !== "human" && l.disposition !== "refuse") || shown.has(l.issue) || listed.has(l.issue)) continue;
    shown.add(l.issue);
    rows.push({ issue: l.issue, title: l.title, reason: l.summary });
  }
  return rows;
}

/**
 * `bosun stats` over the events this process journalled (the app keeps no journal file) and the
 * GATE events read back from the gate's check runs, with what those cover said in the scope line.
 */
function fleetMetricsSection(events: readonly JournalEvent[], gates: GateVerdicts | undefined, work: { readonly read: number; readonly ignored: ReadonlyMap<string, number> } | undefined): { scope: string; text: string } {
  const all = [...events, ...(gates === undefined || "failed" in gates ? [] : gates.events)];
  const records = all.flatMap((e, i) => {
    const parsed = parseJournalLine(JSON.stringify(e), i + 1);
    return parsed !== undefined && "record" in parsed ? [parsed.record] : [];
  });
  const scope = [`Over the last ${events.length} events this app process journalled (since ${events[0]?.t ?? "start"}).`, gateScope(gates), ...(work === undefined ? [] : [workScope(work)])].join(" ");
  return { scope, text: renderFleetMetrics(fleetMetrics(records)) };
}

function gateScope(gates: GateVerdicts | undefined): string {
  if (gates === undefined) return "Gate verdicts: not read.";
  if ("failed" in gates) return `Gate verdicts: could not be read this time (${gates.failed}), so the rejection rate and the accepted count are incomplete.`;
  const ignored = Object.entries(gates.ignored).map(([why, n]) => `${n} ${why}`);
  return `Gate verdicts: ${gates.events.length} read from \`bosun/gate\` check runs on the pull requests of ${gates.items} landed items${ignored.length === 0 ? "" : `; ignored: ${ignored.join(", ")}`}.`;
}

/** Where the cost of `workflow` runs comes from, and what was not believed (a malformed cost says why). */
function workScope(work: { readonly read: number; readonly ignored: ReadonlyMap<string, number> }): string {
  if (work.read === 0 && work.ignored.size === 0) return "Work costs: no `bosun/work` record read yet.";
  const ignored = [...work.ignored].map(([why, n]) => `${n} ${why}`);
  return `Work costs: ${work.read} \`bosun/work\` records read from the runs landed${ignored.length === 0 ? "" : `; ignored: ${ignored.join(", ")}`}.`;
}
