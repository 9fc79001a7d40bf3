/**
 * Text for one stream, gathered through one turn of the event loop and written at its end in one
 * write. The drain prints four lines an item: written one by one, each was a system call and a
 * wake-up of whatever reads the other end (a terminal, a pipe into `grep` or a benchmark).
 * Nothing waits longer than the turn it was written in; `flush()` writes at once, and must be
 * called before anything is written to another stream, so that the two keep their order.
 */
export class TurnWriter {
  private pending: string[] = [];
  private scheduled: NodeJS.Immediate | undefined;

  constructor(private readonly stream: NodeJS.WritableStream) {}

  write(text: string): void {
    if (text === "") return;
    this.pending.push(text);
    this.scheduled ??= setImmediate(() => this.flush());
  }

  /** Writes what was gathered, now. */
  flush(): void {
    if (this.scheduled !== undefined) clearImmediate(this.scheduled);
    this.scheduled = undefined;
    if (this.pending.length === 0) return;
    const text = this.pending.join("");
    this.pending = [];
    this.stream.write(text);
  }
}
