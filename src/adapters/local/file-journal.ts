import { appendFileSync, closeSync, fstatSync, mkdirSync, openSync, readSync } from "node:fs";
import { dirname } from "node:path";
import type { Journal, JournalEvent } from "../../core/journal/journal-event.js";
import { redactSecrets } from "../../core/redact/redact-secrets.js";

export interface FileJournalOptions {
  /**
   * Gather events for up to this long and append them in one write (the drain: five appends an
   * item were a good part of its pace). A crash loses at most the events of that last moment;
   * `flush()` writes at once, and the batch is also written when this process exits. Without it,
   * every event is appended synchronously as it happens.
   */
  readonly batchMs?: number;
}

/** Events gathered before a batch is written at once, whatever its age. */
const MOST_BATCHED = 512;

/**
 * The append-only JSONL journal; secrets are masked on the way out, whatever the event holds.
 * A write that fails (a full disk, a state folder deleted under the drain) does not throw into
 * the engine mid-step: `onError` is told, once per distinct failure, so the drain can stop
 * cleanly and say why, and the events that could not be written are counted.
 *
 * A last line left torn by a crash or a full disk mid-append is ended before anything is
 * appended after it: otherwise the next event joined it, and both were lost to every reader.
 */
export class FileJournal implements Journal {
  /** Events that could not be appended. */
  lost = 0;
  private lastError: string | undefined;
  private pending: string[] = [];
  private timer: NodeJS.Timeout | undefined;
  /** Whether the file is known to end at a line break: checked before the first write and after a failed one. */
  private whole = false;
  private readonly onExit = (): void => this.flush();

  constructor(
    private readonly path: string,
    private readonly secrets: readonly string[] = [],
    private readonly onError?: (message: string) => void,
    private readonly options: FileJournalOptions = {},
  ) {
    mkdirSync(dirname(path), { recursive: true });
  }

  append(event: JournalEvent): void {
    const line = `${redactSecrets(JSON.stringify(event), this.secrets)}\n`;
    const batchMs = this.options.batchMs;
    if (batchMs === undefined) return this.write([line]);
    if (this.pending.length === 0) process.on("exit", this.onExit);
    this.pending.push(line);
    if (this.pending.length >= MOST_BATCHED) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), batchMs);
  }

  /** Writes every gathered event now. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.length === 0) return;
    const lines = this.pending;
    this.pending = [];
    process.off("exit", this.onExit);
    this.write(lines);
  }

  private write(lines: readonly string[]): void {
    try {
      const head = this.whole || endsWhole(this.path) ? "" : "\n";
      appendFileSync(this.path, head + lines.join(""));
      this.whole = true;
    } catch (err) {
      // A write that failed may have left part of a line: look again before the next one.
      this.whole = false;
      if (this.onError === undefined) throw err;
      this.lost += lines.length;
      const code = (err as NodeJS.ErrnoException).code ?? String(err);
      const message = `cannot append to the journal ${this.path}: ${code}`;
      if (message !== this.lastError) this.onError(message);
      this.lastError = message;
    }
  }
}

/** Whether the file is empty, missing, or ends with a line break. */
function endsWhole(path: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return true;
  }
  try {
    const size = fstatSync(fd).size;
    if (size === 0) return true;
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, size - 1);
    return last[0] === 0x0a;
  } finally {
    closeSync(fd);
  }
}
