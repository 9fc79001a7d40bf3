/** What a grant records besides holder, epoch and lease (DESIGN.md, "Fencing on GitHub"). */
export interface GrantFacts {
  /** The pool the grant counts against: in-flight work is counted by it, whatever the labels say later. */
  readonly pool?: string;
  /** The snapshot hash of the brief dispatched (the gate holds the pull request to it). */
  readonly briefHash?: string;
  /** The snapshot comment dispatched: only a newer one proves a re-approval after the item settled. */
  readonly snapshotId?: number;
}
