import type { ClaimRecord, SpendMark } from "../claims/claim-record.js";
import { toMicros } from "./budget-cap.js";

/**
 * Money in the claim records (docs/budgets.md, "On GitHub"): each grant's reservation is a mark in
 * the item's record, written in the grant's own batch commit, so it is as atomic as the claim and
 * every replica reads it with the claims it reads anyway. These are the record's money changes, as
 * pure functions of the record.
 */

/** How long a mark stays in its record: past every window a cap covers (a week), with a day to spare. */
export const SPEND_KEPT_MS = 8 * 86_400_000;

/** What a mark counts against its caps: the cost its run reported, else its reservation (in flight, or kept as spent). */
export const countedMicros = (m: SpendMark): number => m.costMicros ?? m.reserveMicros;

/** Whether a mark is still a reservation: its grant is the record's and is held. */
export const isReserved = (r: Pick<ClaimRecord, "state" | "epoch">, m: SpendMark): boolean => r.state === "held" && r.epoch === m.epoch;

/**
 * The record a grant writes, with its reservation: `micros` for its epoch, at `now`, against
 * `pool`. Marks older than every window a cap covers are dropped here, so a record stays small.
 * @example reserveIn(granted, "default", 500_000, now).spend // [..., {epoch: granted.epoch, at: now, pool: "default", reserveMicros: 500000}]
 */
export function reserveIn(record: ClaimRecord, pool: string, micros: number, now: number): ClaimRecord {
  const kept = (record.spend ?? []).filter((m) => m.at >= now - SPEND_KEPT_MS && m.epoch !== record.epoch);
  return { ...record, spend: [...kept, { epoch: record.epoch, at: now, pool, reserveMicros: Math.max(0, Math.round(micros)) }] };
}

/**
 * The record of a landing at `epoch` with what its run reported (`usd`): the cost replaces the
 * reservation. Nothing reported (undefined, or not a plausible figure) changes nothing: the
 * reservation stays as spent, which errs on the side of the cap.
 */
export function settleIn(record: ClaimRecord, epoch: number, usd: number | undefined): ClaimRecord {
  if (usd === undefined || !Number.isFinite(usd) || usd < 0) return record;
  return withCost(record, epoch, toMicros(usd));
}

/** A grant no worker was ever sent for (its dispatch refused): its reservation is given back whole (its mark goes). */
export function giveBackIn(record: ClaimRecord, epoch: number): ClaimRecord {
  const spend = record.spend;
  if (spend === undefined || !spend.some((m) => m.epoch === epoch)) return record;
  return { ...record, spend: spend.filter((m) => m.epoch !== epoch) };
}

function withCost(record: ClaimRecord, epoch: number, micros: number): ClaimRecord {
  const spend = record.spend;
  if (spend === undefined || !spend.some((m) => m.epoch === epoch)) return record;
  return { ...record, spend: spend.map((m) => (m.epoch === epoch ? { ...m, costMicros: micros } : m)) };
}

/**
 * What became of the run a mark paid for, as the item's record says now: `accepted` (its pull
 * request merged: done), `open` (in flight, or its pull request in review or merged and waiting
 * for a verified deployment), or `failed` — the run failed, was refused, went to a human, was
 * retried or reclaimed (a later grant exists), or the item was withdrawn: work nobody accepted.
 */
export function outcomeOf(r: Pick<ClaimRecord, "state" | "epoch" | "outcome">, m: SpendMark): "accepted" | "open" | "failed" {
  if (m.epoch < r.epoch) return "failed";
  if (r.state === "held" || r.state === "review" || r.state === "merged") return "open";
  return r.state === "settled" && r.outcome?.ok === true ? "accepted" : "failed";
}
