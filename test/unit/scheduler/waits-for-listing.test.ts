/**
 * When a run that ended done waits for GitHub's pull request listing before it lands without a pull
 * request (`waitsForListing`), which pull requests count as the run's own (`ownShown`), and when the
 * tick lists the pull requests once more before deciding on them (`listsAgain`).
 */
import { describe, expect, it } from "vitest";
import { listsAgain } from "../../../src/adapters/github/tick/lists-again.js";
import { LISTING_LAG_MS, ownShown, waitsForListing } from "../../../src/adapters/github/tick/waits-for-listing.js";
import type { PullLink } from "../../../src/adapters/github/tick/tick-github.js";
import type { WorkerState } from "../../../src/core/engine/step-state.js";

const done: WorkerState = { kind: "ended", stop: { kind: "done", reason: "workflow run succeeded" }, run: 7 };
const failed: WorkerState = { kind: "ended", stop: { kind: "failed", failure: "retry", reason: "workflow run failed" }, run: 7 };
const link = (over: Partial<PullLink>): PullLink => ({ number: 9, state: "open", head: "abc", bosunBranch: true, author: "bosun[bot]", ...over });
const NOW = 1_000_000;

describe("waitsForListing", () => {
  it.each([
    ["a run that ended done a moment ago with no pull request of Bosun's shown waits", done, false, NOW - 5_000, true],
    ["one whose own pull request shows does not wait", done, true, NOW - 5_000, false],
    ["one that ended longer ago than the listing's lag lands", done, false, NOW - LISTING_LAG_MS, false],
    ["a failed run lands at once (no pull request decides it)", failed, false, NOW - 5_000, false],
    ["a run whose end time is not known lands at once", done, false, undefined, false],
    ["a live worker is not an ended one", { kind: "live" } as WorkerState, false, NOW - 5_000, false],
  ])("%s", (_name, worker, own, endedAt, waits) => {
    expect(waitsForListing(worker, own, endedAt, NOW)).toBe(waits);
  });
});

describe("ownShown", () => {
  it.each([
    ["Bosun's branch, open", [link({})], true],
    ["Bosun's branch, merged", [link({ state: "merged" })], true],
    ["Bosun's branch, closed unmerged (an earlier attempt's)", [link({ state: "closed" })], false],
    ["someone else's open pull request that says it closes the item", [link({ bosunBranch: false, author: "mallory" })], false],
    ["nothing listed", [], false],
  ])("%s", (_name, links, shown) => {
    expect(ownShown(links as PullLink[])).toBe(shown);
  });
});

describe("listsAgain", () => {
  const held = { grantedAt: NOW - 600_000, leaseUntil: NOW + 600_000 };
  const lapsed = { ...held, leaseUntil: NOW - 1 };
  const unseen: WorkerState = { kind: "unseen" };
  it.each([
    ["a run that ended with none of Bosun's pull requests shown", done, [link({ bosunBranch: false, author: "mallory" })], held, true],
    ["a run that ended with its own pull request shown", done, [link({})], held, false],
    ["a live worker", { kind: "live" } as WorkerState, [], lapsed, false],
    ["an unseen worker within its lease, nothing listed", unseen, [], held, false],
    ["an unseen worker past its lease, nothing listed", unseen, [], lapsed, true],
    ["an unseen worker past its lease, shown by an open pull request", unseen, [link({ bosunBranch: false })], lapsed, false],
    ["an unseen worker past its lease, only an earlier attempt's closed pull request listed", unseen, [link({ state: "closed", createdAt: NOW - 3_600_000 })], lapsed, true],
    ["an unseen worker shown only by a pull request closed during this attempt (it may have been reopened)", unseen, [link({ state: "closed", createdAt: NOW - 60_000 })], held, true],
  ])("%s", (_name, worker, links, record, again) => {
    expect(listsAgain(worker, links as PullLink[], record, NOW)).toBe(again);
  });
});
