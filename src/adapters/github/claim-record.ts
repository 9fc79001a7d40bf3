import type { SettledOutcome } from "../../core/claims/claim-token.js";

/** What a claim commit says about one item's claim: its state after that commit. */
export interface ClaimRecord {
  readonly key: string;
  readonly holder: string;
  readonly epoch: number;
  readonly state: "held" | "released" | "settled";
  readonly leaseUntil: number;
  readonly notBefore?: number;
  readonly outcome?: SettledOutcome;
  /** When the commit was written (the writer's clock), ms. */
  readonly at: number;
  /** The pool the grant counted against, recorded when granted: relabelling an issue does not move it. */
  readonly pool?: string;
  /** The snapshot hash of the brief this grant dispatched: the gate holds the pull request to it. */
  readonly briefHash?: string;
  /** The id of the snapshot comment this grant dispatched: only a newer snapshot re-approves a settled item. */
  readonly snapshotId?: number;
  /** When this epoch was granted (the granting writer's clock): a run named for the epoch must be created after it. */
  readonly grantedAt?: number;
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

const isRecord = (r: unknown): r is ClaimRecord => {
  const x = r as Partial<ClaimRecord> | null;
  return typeof x === "object" && x !== null && typeof x.key === "string" && typeof x.holder === "string" && Number.isInteger(x.epoch) && ["held", "released", "settled"].includes(x.state ?? "") && typeof x.leaseUntil === "number";
};

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
        byRef.set(ref, { record, from: typeof from === "string" ? from : undefined });
      }
      return { byRef };
    }
    if (!message.startsWith(MESSAGE_HEAD)) return undefined;
    const r: unknown = JSON.parse(json);
    return isRecord(r) ? { single: r } : undefined;
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
