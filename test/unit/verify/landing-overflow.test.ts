/** Items past what one verify run lands are sent to a human, not silently left untouched. */
import { describe, expect, it } from "vitest";
import type { ItemLander } from "../../../src/ports/item-lander.js";
import { landDeployedItems, MAX_ITEMS } from "../../../src/action/verify/land-deployed-items.js";
import type { VerifyVerdict } from "../../../src/core/verify/converge.js";

const verified = { kind: "verified", value: "v2", reason: "ok", evidence: {} } as unknown as VerifyVerdict;

function recordingLander(): ItemLander & { landed: number[]; human: number[] } {
  const landed: number[] = [];
  const human: number[] = [];
  return {
    landed,
    human,
    previousDeployedSha: () => Promise.resolve(undefined),
    mergedPullsInRange: () => Promise.resolve({ pulls: [] }),
    landItem: (issue) => Promise.resolve(void landed.push(issue)),
    markNeedsHuman: (issue) => Promise.resolve(void human.push(issue)),
  };
}

describe("landing past the per-run cap", () => {
  it("45 items: 20 landed, the next 20 sent to a human, 5 listed as skipped", async () => {
    const lander = recordingLander();
    const pulls = Array.from({ length: 45 }, (_, i) => ({ number: 1000 + i, body: `Closes #${i + 1}` }));
    const report = await landDeployedItems(lander, verified, { pulls }, { owner: "o", repo: "r" }, () => "landed");
    expect(MAX_ITEMS).toBe(20);
    expect(lander.landed).toHaveLength(20);
    expect(lander.human).toEqual(Array.from({ length: 20 }, (_, i) => i + 21));
    expect(report.skipped).toEqual([41, 42, 43, 44, 45]);
  });

  it("items named in the unexamined commits go to a human, never closed, even when verified", async () => {
    const lander = recordingLander();
    const pulls = [{ number: 100, body: "Closes #1" }];
    const unexamined = { commits: 50, reason: "past the bound", pulls: [{ number: 90, body: "Fixes #2, closes #1" }, { number: 91, body: "Resolves #3" }] };
    const report = await landDeployedItems(lander, verified, { pulls, unexamined }, { owner: "o", repo: "r" }, () => "landed");
    expect(lander.landed).toEqual([1]);
    expect(lander.human).toEqual([2, 3]);
    expect(report.fromUnexamined).toEqual([2, 3]);
    expect(report.pulls.get(2)).toBe(90);
  });

  it("the unexamined commits' items share the write budget: past it they are listed as skipped", async () => {
    const lander = recordingLander();
    const pulls = Array.from({ length: 39 }, (_, i) => ({ number: 1000 + i, body: `Closes #${i + 1}` }));
    const unexamined = { commits: 500, reason: "past the bound", pulls: [{ number: 900, body: "Closes #70" }, { number: 901, body: "Closes #71" }] };
    const report = await landDeployedItems(lander, verified, { pulls, unexamined }, { owner: "o", repo: "r" }, () => "landed");
    expect(lander.landed.length + lander.human.length).toBe(MAX_ITEMS * 2);
    expect(report.fromUnexamined).toEqual([70]);
    expect(report.skipped).toEqual([71]);
  });
});
