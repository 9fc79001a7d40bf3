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

  /** A ticker whose first tick waits (its jitter) until `read()`, then reads, then holds until `open()`; or fails before reading. */
  function jitteredTicker(opts: { failBeforeReading?: boolean; failAfterReading?: boolean } = {}) {
    const ticks: boolean[] = [];
    let toRead: (() => void) | undefined;
    let release: (() => void) | undefined;
    const ticker = coalescedTicker(
      async (heard, gathering) => {
        ticks.push(heard);
        if (ticks.length > 1) return gathering();
        await new Promise<void>((r) => (toRead = r));
        if (opts.failBeforeReading === true) throw new Error("configuration unreadable");
        gathering();
        await new Promise<void>((r) => (release = r));
        if (opts.failAfterReading === true) throw new Error("a write refused: 502");
      },
      () => undefined,
    );
    return { ticker, ticks, read: () => toRead?.(), open: () => release?.() };
  }

  it("what is triggered before the running tick starts to read is read by it: no tick more", async () => {
    const { ticker, ticks, read, open } = jitteredTicker();
    const first = ticker.trigger(true);
    void ticker.trigger(true);
    void ticker.trigger(false);
    read();
    await Promise.resolve();
    open();
    await first;
    expect(ticks).toEqual([true]);
  });

  it("what is triggered once the running tick reads gets one tick more", async () => {
    const { ticker, ticks, read, open } = jitteredTicker();
    const first = ticker.trigger(true);
    void ticker.trigger(false);
    read();
    await new Promise((r) => setTimeout(r, 0));
    void ticker.trigger(true);
    open();
    await first;
    expect(ticks).toEqual([true, true]);
  });

  it("a tick that failed before reading leaves what came meanwhile to one tick more", async () => {
    const { ticker, ticks, read } = jitteredTicker({ failBeforeReading: true });
    const first = ticker.trigger(false);
    void ticker.trigger(true);
    read();
    await first;
    expect(ticks).toEqual([false, true]);
  });

  it("a tick that failed after reading leaves what came in its wait to one tick more (it may not have acted on it)", async () => {
    const { ticker, ticks, read, open } = jitteredTicker({ failAfterReading: true });
    const first = ticker.trigger(false);
    void ticker.trigger(true);
    read();
    await Promise.resolve();
    open();
    await first;
    expect(ticks).toEqual([false, true]);
  });
});
