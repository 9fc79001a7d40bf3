import { appendFileSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import type { Journal, JournalEvent } from "../../core/journal/journal-event.js";
import { redactSecrets } from "../../core/redact/redact-secrets.js";

/**
 * The append-only JSONL journal. Each event is appended synchronously as it happens, so a crash
 * loses nothing that was reported; secrets are masked on the way out, whatever the event holds.
 */
export class FileJournal implements Journal {
  constructor(
    private readonly path: string,
    private readonly secrets: readonly string[] = [],
  ) {
    mkdirSync(dirname(path), { recursive: true });
  }

  append(event: JournalEvent): void {
    appendFileSync(this.path, `${redactSecrets(JSON.stringify(event), this.secrets)}\n`);
  }
}
