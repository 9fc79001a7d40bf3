import type { Journal, JournalEvent } from "../../core/journal/journal-event.js";

/** Keeps journal events in memory, for tests and `--dry-run` summaries. */
export class MemoryJournal implements Journal {
  readonly events: JournalEvent[] = [];

  append(event: JournalEvent): void {
    this.events.push(event);
  }

  /** The events as trace lines (`CLAIM a`, `LAND a ok=true`), for readable assertions. */
  lines(): string[] {
    return this.events.map((e) => `${e.event} ${"item" in e ? e.item : e.summary}`);
  }
}
