import type { Journal, JournalEvent } from "./journal-event.js";

/** Sends every event to several journals (the file, the trace on stdout). */
export function teeJournal(...journals: readonly Journal[]): Journal {
  return {
    append(event: JournalEvent): void {
      for (const journal of journals) journal.append(event);
    },
  };
}
