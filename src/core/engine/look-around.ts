import type { EngineActions } from "./engine-actions.js";

/**
 * With nothing in flight here, gathers what the world outside the engine says before its next
 * step: reclaims expired leases, re-reads the queue, wakes items whose backoff ended, asks about
 * items held elsewhere, and reads the ledger again while a cap holds the ready items back. Returns
 * how long to wait before looking again should the step find nothing to do (0: it will find some).
 */
export async function lookAround<P>(act: EngineActions<P>): Promise<number> {
  const { claims, clock, book, emit, options, purse } = act.parts;
  let now = clock.now();
  for (const view of await claims.reclaimStale(now)) {
    emit({ event: "RECLAIM", item: book.idOfKey(view.key) ?? view.key, from: view.holder, epoch: view.epoch });
  }
  await act.readQueue();
  now = clock.now();
  let next = book.wakeBackoffs(now);
  for (const id of [...book.elsewhere]) {
    const at = await act.recheck(id, now);
    if (at !== undefined) next = Math.min(next, at);
  }
  if (book.ready.size > 0) {
    if (purse.paused === undefined) return 0;
    // Held by budget: the next step looks once more with what the ledger says now (another drain
    // settled, a window rolled over, new work arrived); it holds the best item again or claims.
    await purse.refresh(now);
    purse.paused = undefined;
  }
  return Math.max(1, Math.min(options.pollMs, next - now));
}
