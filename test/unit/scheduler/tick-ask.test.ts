/** What a webhook asks of a tick, and when the claim records alone show it answered: tables of plain facts. */
import { describe, expect, it } from "vitest";
import { asksOfDelivery } from "../../../src/adapters/github/tick/asks-of-delivery.js";
import type { HeardPull } from "../../../src/adapters/github/tick/tick-github.js";
import type { ClaimRecord } from "../../../src/core/claims/claim-record.js";
import { bosunConfigSchema } from "../../../src/core/config/bosun-config.js";
import { asksAnswered, type TickAsk } from "../../../src/core/scheduler/tick-ask.js";

const NOW = Date.UTC(2026, 11, 3, 12);
const config = bosunConfigSchema.parse({ pools: { default: { size: 2, dispatch: { kind: "workflow", workflow: "bosun-work.yml" } } } });

function record(state: ClaimRecord["state"], over: Partial<ClaimRecord> = {}): ClaimRecord {
  return { key: "task:x", holder: "app-1", epoch: 1, state, leaseUntil: NOW + 600_000, at: NOW - 1_000, briefHash: "h", ...over };
}
const records = (entries: ReadonlyArray<readonly [number, ClaimRecord]>): Map<number, ClaimRecord> => new Map(entries);
/** An approval recorded without a brief (the text changed after it): nothing frozen, nothing to grant. */
const unfrozen = (): ClaimRecord => {
  const { briefHash: _none, ...rest } = record("approved");
  return rest;
};
const ended = (n: number, epoch = 1): TickAsk => ({ kind: "run-ended", n, epoch });
const closed = (n: number): TickAsk => ({ kind: "pull-closed", n });
const approved = (n: number, at: number): TickAsk => ({ kind: "approved", n, at });

describe("asksAnswered", () => {
  it.each([
    ["no ask at all: a whole tick", [], [], false],
    ["the run's item landed (in review), nothing waiting", [ended(1)], [[1, record("review")]], true],
    ["the run's item still held at that epoch: nobody landed it", [ended(1)], [[1, record("held")]], false],
    ["the run's item held again at a later epoch: that run's end was taken in", [ended(1)], [[1, record("held", { epoch: 2 })]], true],
    ["the run's item has no record Bosun wrote", [ended(1)], [], false],
    ["the pull request's item settled (its merge taken in)", [closed(1)], [[1, record("settled", { outcome: { ok: true, disposition: "ok", summary: "merged" } })]], true],
    ["the pull request's item still in review: its close not taken in", [closed(1)], [[1, record("review")]], false],
    ["the pull request's item held (a pull request is its worker)", [closed(1)], [[1, record("held")]], false],
    ["the pull request's item merged, waiting for its deployment", [closed(1)], [[1, record("merged")]], true],
    ["a pull request for an issue with no record (not an item)", [closed(7)], [], true],
    ["answered, but a slot free while an item waits", [ended(1)], [[1, record("review")], [2, record("held")], [3, record("approved")]], false],
    ["answered, the pool full while an item waits", [ended(1)], [[1, record("review")], [2, record("held")], [4, record("held")], [3, record("approved")]], true],
    ["answered, a slot free but the waiting item in its retry backoff", [ended(1)], [[1, record("review")], [3, record("released", { notBefore: NOW + 60_000 })]], true],
    ["answered, a slot free but the waiting item froze no brief (it waits for a re-approval)", [ended(1)], [[1, record("review")], [3, unfrozen()]], true],
    ["one of two asks not answered", [ended(1), closed(2)], [[1, record("review")], [2, record("review")]], false],
    ["an approval recorded, given at that second (the pool full)", [approved(1, NOW - 5_000)], [[1, record("approved", { approval: { id: 7, by: "mona", at: NOW - 5_000 } })], [2, record("held")], [4, record("held")]], true],
    ["an approval recorded and already granted", [approved(1, NOW - 5_000)], [[1, record("held", { approval: { id: 7, by: "mona", at: NOW - 5_000 } })]], true],
    ["only an older approval recorded (a re-approval not taken in)", [approved(1, NOW - 5_000)], [[1, record("approved", { approval: { id: 6, by: "mona", at: NOW - 60_000 } })]], false],
    ["no record yet of the approval", [approved(1, NOW - 5_000)], [], false],
  ] as const)("%s → %s", (_what, asks, entries, expected) => {
    expect(asksAnswered(asks, records(entries), config, NOW)).toBe(expected);
  });
});

const pull = (over: Partial<HeardPull> = {}): HeardPull => ({ number: 9, state: "closed", body: "Closes #3", updated_at: "2026-12-03T12:00:00Z", merged_at: "2026-12-03T12:00:00Z", head: { ref: "bosun/3-work", sha: "a".repeat(40), repo: { full_name: "acme/app" } }, user: { login: "bosun[bot]" }, ...over });

describe("asksOfDelivery", () => {
  it.each([
    ["a work run of one item ended", { name: "workflow_run", action: "completed", workflow_run: { event: "workflow_dispatch", display_title: "bosun #4 epoch 2" } }, [ended(4, 2)]],
    ["a batch run ended: one ask per leg", { name: "workflow_run", action: "completed", workflow_run: { event: "workflow_dispatch", display_title: "bosun #4 epoch 2, #5 epoch 1" } }, [ended(4, 2), ended(5, 1)]],
    ["a run whose name is not Bosun's form: a whole tick", { name: "workflow_run", action: "completed", workflow_run: { event: "workflow_dispatch", display_title: "nightly" } }, []],
    ["a run whose name names no issue number: a whole tick", { name: "workflow_run", action: "completed", workflow_run: { event: "workflow_dispatch", display_title: "bosun #abc epoch 2" } }, []],
    ["a verify run (a deployment's status): a whole tick", { name: "workflow_run", action: "completed", workflow_run: { event: "deployment_status", display_title: "verify" } }, []],
    ["a pull request closed: its closing keyword and its branch", { name: "pull_request", action: "closed", pull_request: pull({ body: "Fixes #8" }) }, [closed(8), closed(3)]],
    ["a pull request reopened: a whole tick", { name: "pull_request", action: "reopened", pull_request: pull() }, []],
    ["a check run: a whole tick", { name: "check_run", action: "completed" }, []],
    ["the approval label added (any case)", { name: "issues", action: "labeled", label: { name: "Bosun:Ready" }, issue: { number: 5, updated_at: "2026-12-03T12:00:00Z" }, readyLabel: "bosun:ready" }, [approved(5, Date.UTC(2026, 11, 3, 12))]],
    ["another label added: a whole tick", { name: "issues", action: "labeled", label: { name: "bug" }, issue: { number: 5, updated_at: "2026-12-03T12:00:00Z" }, readyLabel: "bosun:ready" }, []],
    ["the approval label removed: a whole tick", { name: "issues", action: "unlabeled", label: { name: "bosun:ready" }, issue: { number: 5, updated_at: "2026-12-03T12:00:00Z" }, readyLabel: "bosun:ready" }, []],
    ["an issue with no time: a whole tick", { name: "issues", action: "labeled", label: { name: "bosun:ready" }, issue: { number: 5 }, readyLabel: "bosun:ready" }, []],
  ] as const)("%s", (_what, delivery, expected) => {
    expect(asksOfDelivery(delivery)).toEqual(expected);
  });
});
