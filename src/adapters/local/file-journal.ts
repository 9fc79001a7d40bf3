import { appendFileSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import type { Journal, JournalEvent } from "../../core/journal/journal-event.js";
import { redactSecrets } from "../../core/redact/redact-secrets.js";

/**
 * The append-only JSONL journal. Each event is appended synchronously as it happens, so a crash
 * loses nothing that was reported; secrets are masked on the way out, whatever the event holds.
 * A write that fails (a full disk, a state folder deleted under the drain) does not throw into
 * the engine mid-step: `onError` is told, once per distinct failure, so the drain can stop
 * cleanly and say why, and the events that could not be written are counted.
 */
export class FileJournal implements Journal {
  /** Events that could not be appended. */
  lost = 0;
  private lastError: string | undefined;

  constructor(
    private readonly path: string,
    private readonly secrets: readonly string[] = [],
    private readonly onError?: (message: string) => void,
  ) {
    mkdirSync(dirname(path), { recursive: true });
  }

  append(event: JournalEvent): void {
    try {
      appendFileSync(this.path, `${redactSecrets(JSON.stringify(event), this.secrets)}\n`);
    } catch (err) {
      if (this.onError === undefined) throw err;
      this.lost++;
      const code = (err as NodeJS.ErrnoException).code ?? String(err);
      const message = `cannot append to the journal ${this.path}: ${code}`;
      if (message !== this.lastError) this.onError(message);
      this.lastError = message;
    }
  }
}
