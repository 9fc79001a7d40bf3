/** The App's coalesced ticker: triggers during a tick fold into one more, which is heard if any of them was. */
import { describe, expect, it } from "vitest";
import { coalescedTicker } from "../../../src/app/scheduler/coalesced-ticker.js";

/** A ticker whose first tick stays running until `open()`, and whether each tick was heard, in order. */
function heldTicker(): { ticker: ReturnType<typeof coalescedTicker>; ticks: boolean[]; open: () => void } {
  const ticks: boolean[] = [];
  let release: (() => void) | undefined;
  const ticker = coalescedTicker(
    (heard) => {
      ticks.push(heard);
      return ticks.length === 1 ? new Promise<void>((r) => (release = r)) : Promise.resolve();
    },
    () => undefined,
  );
  return { ticker, ticks, open: () => release?.() };
}

describe("coalescedTicker", () => {
  it("folds triggers during a tick into one more tick, heard when any folded trigger was", async () => {
    const { ticker, ticks, open } = heldTicker();
    const first = ticker.trigger(false);
    void ticker.trigger(false);
    void ticker.trigger(true);
    void ticker.trigger(false);
    open();
    await first;
    expect(ticks).toEqual([false, true]);
  });

  it("a timed trigger during a heard tick gives a timed follow-up, and nothing folded gives none", async () => {
    const { ticker, ticks, open } = heldTicker();
    const first = ticker.trigger(true);
    void ticker.trigger(false);
    open();
    await first;
    await ticker.trigger(true);
    expect(ticks).toEqual([true, false, true]);
  });
});
