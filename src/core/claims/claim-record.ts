import type { SettledOutcome } from "./claim-token.js";
import type { Evidence } from "../journal/journal-event.js";
import type { RunCost } from "../journal/run-cost.js";
import type { Stop } from "../stop/stop.js";

/**
 * Where an item is in its life (docs/lifecycle.md), as the claim record says:
 * - `approved`: a writer's approval is recorded (with the brief's hash); waiting for a slot.
 * - `invalid`: an approval of a brief that does not validate (its problems are on the issue).
 * - `withdrawn`: the approval was withdrawn (or the issue closed) before anything ran.
 * - `held`: claimed and dispatched at `epoch`, under a lease.
 * - `released`: back in the queue (a retry or a reclaim), not before `notBefore`.
 * - `review`: the run ended done and its pull request `pull` is open: the gate, separation and
 *   a merge decide. No pool slot is taken.
 * - `merged`: the pull request was merged as `merge`; waiting for a verified deployment.
 * - `settled`: final: `outcome` says done, refused or for a human.
 */
export type ClaimState = "approved" | "invalid" | "withdrawn" | "held" | "released" | "review" | "merged" | "settled";

export const CLAIM_STATES: readonly ClaimState[] = ["approved", "invalid", "withdrawn", "held", "released", "review", "merged", "settled"];

/** The approval an item runs under: the `labeled` issue event that added the approval label. */
export interface Approval {
  /** GitHub's id of that issue event: one approval, one id, whoever delivers it. */
  readonly id: number;
  readonly by: string;
  /** When the label was added, ms. */
  readonly at: number;
}

/** A landing as it was decided, once, by whoever landed it: later readers read it back, never decide again. */
export interface RecordedLanding {
  readonly stop: Stop;
  readonly disposition: "ok" | "retry" | "refuse" | "human" | "review";
  readonly summary: string;
  readonly evidence?: Evidence;
  readonly cost?: RunCost;
  /** Who landed it: the holder name of the replica, the Action run, or the person by command. */
  readonly by: string;
  /** The workflow run the landing came from, when it came from one. */
  readonly run?: number;
}

/**
 * Money one grant of the item reserved (DESIGN.md, "Budgets"), kept in the claim record so that it
 * is written in the same batch commit as the grant and read by every replica with the claims.
 * While the record is held at `epoch` it is a reservation; after, it is spent: the cost the run
 * reported (`costMicros`) or, when it reported none, the reservation itself.
 */
export interface SpendMark {
  /** The grant it was reserved for. */
  readonly epoch: number;
  /** When it was reserved (ms): the day and week it counts in. */
  readonly at: number;
  /** The pool the grant counted against. */
  readonly pool: string;
  /** Micro-dollars reserved at the grant. */
  readonly reserveMicros: number;
  /** Micro-dollars the run reported costing, once it landed with a cost. */
  readonly costMicros?: number;
}

/** What a claim commit says about one item: its state after that commit. */
export interface ClaimRecord {
  readonly key: string;
  readonly holder: string;
  readonly epoch: number;
  readonly state: ClaimState;
  readonly leaseUntil: number;
  readonly notBefore?: number;
  readonly outcome?: SettledOutcome;
  /** When the commit was written (the writer's clock), ms. */
  readonly at: number;
  /** The pool the grant counted against, recorded when granted: relabelling an issue does not move it. */
  readonly pool?: string;
  /** The snapshot hash of the approved brief: the gate holds the pull request to it. */
  readonly briefHash?: string;
  /** The approved brief's id: how `blocked_by: [<id>]` finds this item. */
  readonly briefId?: string;
  /** The id of the snapshot comment of this approval, once posted. */
  readonly snapshotId?: number;
  /** When this epoch was granted (the granting writer's clock): a run named for the epoch must be created after it. */
  readonly grantedAt?: number;
  /** The approval this item runs under. */
  readonly approval?: Approval;
  /** A grant not seen dispatched by then (no run, no pull request) is taken back: its granter died between grant and dispatch. */
  readonly dispatchBy?: number;
  /** The item's pull request (review, merged, and settled from them). */
  readonly pull?: number;
  /** The merge commit (merged, and settled done from it). */
  readonly merge?: string;
  /** The latest landing, as decided when it was written. */
  readonly landing?: RecordedLanding;
  /** Money reserved and spent by the item's grants of the last eight days, oldest first. */
  readonly spend?: readonly SpendMark[];
  /**
   * Whether the item has Bosun's status comment: posted only once there is something to say that
   * the labels and the dashboard do not (`statusCalledFor`), and kept up to date from then on.
   * Undefined: written before Bosun recorded it (or over a cleaned-up ref), so one may be there: look.
   */
  readonly statusComment?: boolean;
}

/** A claim commit read back: one record (a single-item write) or one per ref (a batch). */
export type ClaimCommit = { readonly single: ClaimRecord } | { readonly byRef: ReadonlyMap<string, { readonly record: ClaimRecord; readonly from: string | undefined }> };

const MESSAGE_HEAD = "bosun claim";
const BATCH_HEAD = "bosun claims:";

/** A single-item claim commit's message: a readable first line, then the record as JSON. */
export function renderClaimMessage(r: ClaimRecord): string {
  return `${MESSAGE_HEAD} ${r.key} epoch ${r.epoch} ${r.state} by ${r.holder}\n\n${JSON.stringify(r)}\n`;
}

/**
 * A batch commit's message: one record per ref it moves, with the commit each ref moved from (a
 * batch commit has one parent per ref, so an item's own history is found through `from`).
 */
export function renderBatchMessage(writes: ReadonlyArray<{ readonly ref: string; readonly from: string | undefined; readonly record: ClaimRecord }>): string {
  const line = writes.map((w) => `${w.ref.slice(w.ref.lastIndexOf("/") + 1)} ${w.record.state} e${w.record.epoch}`).join(", ");
  const refs = Object.fromEntries(writes.map((w) => [w.ref, { ...w.record, ...(w.from === undefined ? {} : { from: w.from }) }]));
  return `${BATCH_HEAD} ${writes.length} item(s): ${line}\n\n${JSON.stringify({ refs })}\n`;
}

const isFiniteNumber = (x: unknown): x is number => typeof x === "number" && Number.isFinite(x);
const optional = (x: unknown, test: (v: unknown) => boolean): boolean => x === undefined || test(x);
const isMicros = (v: unknown): boolean => Number.isSafeInteger(v) && (v as number) >= 0;

/** A spend mark's shape: whole, non-negative micro-dollars, so that totals never drift. */
function isSpendMark(m: unknown): boolean {
  if (typeof m !== "object" || m === null) return false;
  const x = m as Record<string, unknown>;
  return Number.isSafeInteger(x["epoch"]) && isFiniteNumber(x["at"]) && typeof x["pool"] === "string" && isMicros(x["reserveMicros"]) && optional(x["costMicros"], isMicros);
}

/** The shape every record must have; anything else in a claim commit is not a record. */
function isRecord(r: unknown): r is ClaimRecord {
  if (typeof r !== "object" || r === null) return false;
  const x = r as Record<string, unknown>;
  const approval = x["approval"] as Record<string, unknown> | undefined;
  return (
    typeof x["key"] === "string" &&
    typeof x["holder"] === "string" &&
    Number.isSafeInteger(x["epoch"]) &&
    (x["epoch"] as number) >= 0 &&
    CLAIM_STATES.includes(x["state"] as ClaimState) &&
    isFiniteNumber(x["leaseUntil"]) &&
    optional(x["notBefore"], isFiniteNumber) &&
    optional(x["at"], isFiniteNumber) &&
    optional(x["pool"], (v) => typeof v === "string") &&
    optional(x["briefHash"], (v) => typeof v === "string") &&
    optional(x["briefId"], (v) => typeof v === "string") &&
    optional(x["snapshotId"], (v) => Number.isSafeInteger(v)) &&
    optional(x["grantedAt"], isFiniteNumber) &&
    optional(x["dispatchBy"], isFiniteNumber) &&
    optional(x["pull"], (v) => Number.isSafeInteger(v)) &&
    optional(x["merge"], (v) => typeof v === "string") &&
    optional(x["spend"], (v) => Array.isArray(v) && v.every(isSpendMark)) &&
    optional(x["statusComment"], (v) => typeof v === "boolean") &&
    (approval === undefined || (typeof approval === "object" && approval !== null && Number.isSafeInteger(approval["id"]) && typeof approval["by"] === "string" && isFiniteNumber(approval["at"])))
  );
}

/** Reads a claim commit's message; undefined for anything else (a stray commit is not a claim). */
export function parseClaimCommit(message: string): ClaimCommit | undefined {
  const json = message.slice(message.indexOf("\n\n") + 2).trim();
  try {
    if (message.startsWith(BATCH_HEAD)) {
      const refs = (JSON.parse(json) as { refs?: Record<string, unknown> }).refs ?? {};
      const byRef = new Map<string, { record: ClaimRecord; from: string | undefined }>();
      for (const [ref, value] of Object.entries(refs)) {
        if (!isRecord(value)) continue;
        const { from, ...record } = value as ClaimRecord & { from?: string };
        byRef.set(ref, { record: { ...record, at: record.at ?? 0 }, from: typeof from === "string" ? from : undefined });
      }
      return { byRef };
    }
    if (!message.startsWith(MESSAGE_HEAD)) return undefined;
    const r: unknown = JSON.parse(json);
    return isRecord(r) ? { single: { ...r, at: r.at ?? 0 } } : undefined;
  } catch {
    return undefined;
  }
}

/** The record a claim commit holds for one ref. */
export function recordFor(commit: ClaimCommit | undefined, ref: string): ClaimRecord | undefined {
  if (commit === undefined) return undefined;
  return "single" in commit ? commit.single : commit.byRef.get(ref)?.record;
}

/** Where a ref pointed before this commit: a batch names it; a single-item commit's first parent. */
export function previousOf(commit: ClaimCommit | undefined, ref: string, parents: readonly string[]): string | undefined {
  if (commit !== undefined && "byRef" in commit) return commit.byRef.get(ref)?.from;
  return parents[0];
}

/** A single-item commit's record (tests and tools that read one ref). */
export function parseClaimMessage(message: string, ref = ""): ClaimRecord | undefined {
  return recordFor(parseClaimCommit(message), ref);
}

/** Whether a record takes a pool slot: only a claim whose worker may be running. */
export const takesSlot = (r: Pick<ClaimRecord, "state">): boolean => r.state === "held";

/** Whether the item is between its approval and its end: not idle while any is. */
export const isOpenState = (r: Pick<ClaimRecord, "state">): boolean => r.state === "approved" || r.state === "held" || r.state === "released" || r.state === "review" || r.state === "merged";
