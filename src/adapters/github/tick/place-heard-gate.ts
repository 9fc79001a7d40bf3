import type { ClaimRecord } from "../../../core/claims/claim-record.js";
import type { GateFact } from "../../../core/engine/step-state.js";
import { parseGateCheckMarker } from "../../../core/journal/gate-check-marker.js";
import { gateOfCheckRun, type GateCheckRun } from "./gate-of-check-run.js";
import { headOf } from "./head-of.js";
import type { TickReads } from "./tick-github.js";

export interface PlacementFacts {
  readonly owner: string;
  readonly repo: string;
  /** The App's bot login, normalized: only its runs are verdicts. */
  readonly bot: string;
  /** The item's record as this process last read it (no request). */
  readonly recordOf: (n: number) => ClaimRecord | undefined;
  readonly knownHead: TickReads["knownHead"];
}

/**
 * Where a gate verdict heard from its webhook belongs: the item (from the run's marker), its record
 * in review, and the verdict — only when the run is on the head of the pull request that record
 * names (the gate judges any pull request that says it closes the item). The payload (signed) lists
 * the open pull requests on its commit, other repositories' among them (numbered in their own
 * repository): only this one's count, and the later of that view and this process's listing wins.
 * "unplaced": the record or the head is not known here (yet); "ignored": not a verdict of the App's.
 */
export function placeHeardGate(run: GateCheckRun, facts: PlacementFacts): { readonly n: number; readonly record: ClaimRecord; readonly gate: GateFact } | "unplaced" | "ignored" {
  const gate = gateOfCheckRun(run, run.head_sha, facts.bot);
  const marker = parseGateCheckMarker(run.output?.summary);
  const n = marker.ok ? Number(marker.marker.item) : Number.NaN;
  if (gate === undefined || !Number.isInteger(n) || n <= 0) return "ignored";
  const record = facts.recordOf(n);
  if (record?.pull === undefined || (record.state !== "review" && record.state !== "merged")) return "unplaced";
  const pull = record.pull;
  const own = `/repos/${facts.owner}/${facts.repo}`.toLowerCase();
  const listed = run.pull_requests?.find((p) => p.number === pull && (p.base?.repo?.url ?? "").toLowerCase().endsWith(own))?.head.sha;
  if (headOf(listed, facts.knownHead(pull), run.completed_at) !== gate.sha) return "unplaced";
  return { n, record, gate };
}

/** The most heard gate verdicts kept for the next tick to place. */
const UNPLACED_KEPT = 100;

/**
 * The App's own gate runs heard from their webhooks: each verdict is kept for the ticks (`hear`,
 * no read) and journalled as the item's `GATE` where this process can place it (`place`) — a pass
 * sets off no tick, and a merge may end the review before any tick reads it. One not placeable yet
 * is kept for the next tick to place once it has read the claim records (the App asks `records`).
 */
export class HeardGates {
  private readonly unplaced: GateCheckRun[] = [];

  constructor(
    private readonly hear: (run: GateCheckRun) => boolean,
    private readonly place: (run: GateCheckRun) => "journalled" | "unplaced" | "ignored",
  ) {}

  /** "ignored": not the App's, or older than the verdict known (webhooks come in any order); "unplaced": kept for the next tick. */
  heard(run: GateCheckRun): "journalled" | "unplaced" | "ignored" {
    if (!this.hear(run)) return "ignored";
    const placed = this.place(run);
    if (placed === "unplaced") this.keep([run]);
    return placed;
  }

  /** The verdicts kept so far, for a tick about to read the records (one heard while it runs waits for the next). */
  take(): GateCheckRun[] {
    return this.unplaced.splice(0);
  }

  /** After the tick read the records: placed now, or not the item's review. */
  placeAll(runs: readonly GateCheckRun[]): void {
    for (const run of runs) this.place(run);
  }

  /** A tick that failed: its verdicts wait for the next one. */
  keep(runs: readonly GateCheckRun[]): void {
    this.unplaced.unshift(...runs);
    if (this.unplaced.length > UNPLACED_KEPT) this.unplaced.splice(0, this.unplaced.length - UNPLACED_KEPT);
  }
}
