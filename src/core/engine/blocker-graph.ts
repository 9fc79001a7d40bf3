/**
 * Who waits on whom (`blocked_by`): an item is released when its last blocker lands ok, and is
 * blocked for good (with every item waiting on it) when a blocker does not.
 */
export class BlockerGraph {
  private readonly dependents = new Map<string, string[]>();
  private readonly waitingOn = new Map<string, Set<string>>();

  /** Adds an item with the blockers that have not landed ok; true when it is ready at once. */
  add(id: string, pendingBlockers: Iterable<string>): boolean {
    const pending = new Set(pendingBlockers);
    for (const blocker of pending) {
      const list = this.dependents.get(blocker);
      if (list === undefined) this.dependents.set(blocker, [id]);
      else list.push(id);
    }
    if (pending.size === 0) return true;
    this.waitingOn.set(id, pending);
    return false;
  }

  /** A blocker landed ok: the items it was the last blocker of. */
  landedOk(id: string): string[] {
    const released: string[] = [];
    for (const dependent of this.dependents.get(id) ?? []) {
      const pending = this.waitingOn.get(dependent);
      if (pending === undefined) continue;
      pending.delete(id);
      if (pending.size === 0) {
        this.waitingOn.delete(dependent);
        released.push(dependent);
      }
    }
    return released;
  }

  /** An item will never land ok: every item waiting on it, directly or not, with why. */
  neverOk(id: string, why: string): Array<{ id: string; why: string }> {
    const blocked: Array<{ id: string; why: string }> = [];
    for (const dependent of this.dependents.get(id) ?? []) {
      if (!this.waitingOn.has(dependent)) continue;
      this.waitingOn.delete(dependent);
      blocked.push({ id: dependent, why }, ...this.neverOk(dependent, `${dependent} is blocked`));
    }
    return blocked;
  }

  /** Items still waiting, with the blockers they wait on. */
  waiting(): IterableIterator<[string, ReadonlySet<string>]> {
    return this.waitingOn.entries();
  }
}
