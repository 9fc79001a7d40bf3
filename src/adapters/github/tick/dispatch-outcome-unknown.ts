import { statusOf } from "../status-of.js";

/**
 * A dispatch whose outcome is unknown: GitHub answered 5xx or the connection dropped, and the
 * write may have applied (a run started, a label or comment landed) all the same. Its claim stays
 * held: the worker is "unseen" until it shows itself, and the lease rule takes the claim back at
 * lease end if it never does. Releasing it for a retry could put a second worker on the item.
 */
export class DispatchOutcomeUnknown extends Error {
  constructor(readonly issue: number, cause: unknown) {
    super(`the dispatch of #${issue} may have applied (${cause instanceof Error ? cause.message : String(cause)}): its claim is kept until its worker shows or its lease ends`);
    this.name = "DispatchOutcomeUnknown";
  }
}

/** Rethrows a failed dispatch write: a 4xx as it is (nothing was started), anything else as unknown. */
export function dispatchFailure(issue: number, err: unknown): never {
  const code = statusOf(err);
  if (code !== undefined && code < 500) throw err;
  throw new DispatchOutcomeUnknown(issue, err);
}
