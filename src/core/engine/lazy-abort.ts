/**
 * An abort signal made only when someone asks for it. Most dispatches never read theirs (stand-ins,
 * webhook-driven workers), and an AbortController costs more than the rest of a dispatch.
 */
export class LazyAbort {
  private controller: AbortController | undefined;
  private reason: unknown;
  private aborted = false;

  /** Fires when the claim behind the dispatch is lost. */
  get signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController();
      if (this.aborted) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.controller?.abort(reason);
  }
}

/** What a dispatcher gets to learn that it must stop: `control.signal` aborts when the claim is lost. */
export interface WorkerControl {
  readonly signal: AbortSignal;
}
