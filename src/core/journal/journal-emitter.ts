import type { Clock } from "../engine/clock.js";
import type { Journal, JournalEvent } from "./journal-event.js";
import type { DistributiveOmit } from "./land-event.js";

/** An event as its writer gives it: the version and time are stamped on the way in. */
export type UnstampedEvent = DistributiveOmit<JournalEvent, "v" | "t">;

/** Appends events to a journal stamped with the clock's time (`v: 1`, ISO `t`). */
export function journalEmitter(journal: Journal, clock: Pick<Clock, "now">): (event: UnstampedEvent) => void {
  let isoAt = Number.NaN;
  let iso = "";
  return (event) => {
    const now = clock.now();
    // Formatting a date costs more than the rest of an event: reuse it within one millisecond.
    if (now !== isoAt) {
      isoAt = now;
      iso = new Date(now).toISOString();
    }
    journal.append({ v: 1, t: iso, ...event } as JournalEvent);
  };
}
