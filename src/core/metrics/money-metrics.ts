import { acceptance } from "./acceptance.js";
import type { JournalRecord } from "./journal-record.js";

/** What became of a run, for whoever pays for it. */
export type RunOutcome = "accepted" | "not_accepted" | "refused" | "failed";
export const RUN_OUTCOMES: readonly RunOutcome[] = ["accepted", "not_accepted", "refused", "failed"];

/** One run's money, as the journal records it. */
export interface RunSpend {
  readonly item: string;
  /** Its task class: its DISPATCH's `class`, else the last one any event gave the item, else `(none)`. */
  readonly class: string;
  /** Who ran it and at which tier, from its DISPATCH; `(unknown)` on lines that do not say. */
  readonly agent: string;
  readonly tier: string;
  /** US dollars: what it reported, else what it reserved (a run that reports nothing keeps its reservation as spent). */
  readonly usd: number | undefined;
  readonly from: "reported" | "reservation" | "none";
  readonly outcome: RunOutcome;
}

/** Where the money went, over one window. */
export interface SpendByOutcome {
  readonly runs: number;
  readonly usd: number;
  /** Runs that reported no cost and are counted at their reservation, as the ledger counts them. */
  readonly runs_at_reservation: number;
  /** Runs with neither a reported cost nor a reservation: the sums leave them out (lower bounds). */
  readonly runs_without_cost: number;
  readonly by_outcome: Readonly<Record<RunOutcome, { readonly runs: number; readonly usd: number; readonly share: number | null }>>;
}

/** Cost per accepted task within one group (a task class, an agent, a tier). */
export interface GroupCost {
  readonly key: string;
  readonly runs: number;
  readonly usd: number;
  readonly runs_without_cost: number;
  readonly accepted_tasks: number;
  /** usd ÷ accepted_tasks; null when nothing of the group was accepted or no run of it has a cost. */
  readonly per_accepted_task_usd: number | null;
}

export interface MoneyMetrics {
  readonly spend: SpendByOutcome;
  readonly per_accepted_task: { readonly by_class: readonly GroupCost[]; readonly by_agent: readonly GroupCost[]; readonly by_tier: readonly GroupCost[] };
}

const UNKNOWN = "(unknown)";

/**
 * Each LAND as a run with its money: joined to the DISPATCH that started it (the same item and
 * epoch, else the item's latest DISPATCH before it). Outcomes: `accepted` (landed ok, and the item
 * was accepted: acceptance.ts), `not_accepted` (landed ok, the gate has not passed it), `refused`
 * (the engine refused the outcome), `failed` (every other run that did not land ok, fenced ones too).
 */
export function runSpends(records: readonly JournalRecord[]): RunSpend[] {
  const { accepted } = acceptance(records);
  const classes = new Map<string, string>();
  for (const r of records) if (r.item !== undefined && r.class !== undefined) classes.set(r.item, r.class);
  const dispatches = new Map<string, Array<Extract<JournalRecord, { event: "DISPATCH" }>>>();
  const runs: RunSpend[] = [];
  for (const r of records) {
    if (r.item === undefined) continue;
    if (r.event === "DISPATCH") {
      const list = dispatches.get(r.item) ?? [];
      list.push(r);
      dispatches.set(r.item, list);
      continue;
    }
    if (r.event !== "LAND") continue;
    const list = dispatches.get(r.item) ?? [];
    const d = (r.epoch === undefined ? undefined : list.findLast((x) => x.epoch === r.epoch)) ?? list.at(-1);
    const reported = r.cost?.usd;
    const usd = reported ?? d?.reserve_usd;
    const outcome: RunOutcome = r.ok && r.fenced !== true ? (accepted.has(r.item) ? "accepted" : "not_accepted") : r.disposition === "refuse" ? "refused" : "failed";
    runs.push({
      item: r.item,
      class: d?.class ?? classes.get(r.item) ?? "(none)",
      agent: d?.agent ?? UNKNOWN,
      tier: d?.tier ?? UNKNOWN,
      usd,
      from: reported !== undefined ? "reported" : usd !== undefined ? "reservation" : "none",
      outcome,
    });
  }
  return runs;
}

/**
 * Where a window's money went and what an accepted task cost per class, agent and tier, from the
 * journal's own events (docs/stats.md, "Money"). A group's accepted tasks are the accepted items
 * of its class; for agents and tiers, those whose accepted run (their last ok LAND) was theirs.
 */
export function moneyMetrics(records: readonly JournalRecord[]): MoneyMetrics {
  const runs = runSpends(records);
  const by = Object.fromEntries(RUN_OUTCOMES.map((o) => [o, { runs: 0, usd: 0 }])) as Record<RunOutcome, { runs: number; usd: number }>;
  let usd = 0;
  for (const run of runs) {
    by[run.outcome].runs++;
    by[run.outcome].usd += run.usd ?? 0;
    usd += run.usd ?? 0;
  }
  const share = (x: number): number | null => (usd > 0 ? x / usd : null);
  const spend: SpendByOutcome = {
    runs: runs.length,
    usd,
    runs_at_reservation: runs.filter((r) => r.from === "reservation").length,
    runs_without_cost: runs.filter((r) => r.from === "none").length,
    by_outcome: Object.fromEntries(RUN_OUTCOMES.map((o) => [o, { ...by[o], share: share(by[o].usd) }])) as SpendByOutcome["by_outcome"],
  };
  // The run that got each accepted item accepted: its last ok one.
  const acceptedRun = new Map<string, RunSpend>();
  for (const run of runs) if (run.outcome === "accepted") acceptedRun.set(run.item, run);
  const acceptedBy = (key: (run: RunSpend) => string): Map<string, number> => {
    const counts = new Map<string, number>();
    for (const run of acceptedRun.values()) counts.set(key(run), (counts.get(key(run)) ?? 0) + 1);
    return counts;
  };
  const group = (key: (run: RunSpend) => string): GroupCost[] => {
    const accepted = acceptedBy(key);
    const sums = new Map<string, { runs: number; usd: number; without: number }>();
    for (const run of runs) {
      const s = sums.get(key(run)) ?? { runs: 0, usd: 0, without: 0 };
      s.runs++;
      s.usd += run.usd ?? 0;
      if (run.usd === undefined) s.without++;
      sums.set(key(run), s);
    }
    return [...sums.entries()]
      .sort((a, b) => a[0].localeCompare(b[0]))
      .map(([k, s]) => {
        const n = accepted.get(k) ?? 0;
        return { key: k, runs: s.runs, usd: s.usd, runs_without_cost: s.without, accepted_tasks: n, per_accepted_task_usd: n === 0 || s.without === s.runs ? null : s.usd / n };
      });
  };
  return { spend, per_accepted_task: { by_class: group((r) => r.class), by_agent: group((r) => r.agent), by_tier: group((r) => r.tier) } };
}
