/**
 * The one blocker rule (DESIGN.md, "One engine"), for the local drain and the GitHub tick alike:
 * an item waits while any blocker has not landed ok, and is blocked for good (a human decides) as
 * soon as one settled without landing ok. Each face says what it knows of a blocker; the rule is here.
 */
export type BlockerStatus = "landed-ok" | "pending" | "not-ok";

export type BlockerVerdict =
  | { readonly kind: "ready" }
  | { readonly kind: "waiting"; readonly on: readonly string[] }
  | { readonly kind: "blocked"; readonly by: readonly string[] };

export function blockerVerdict(blockers: ReadonlyArray<{ readonly name: string; readonly status: BlockerStatus }>): BlockerVerdict {
  const notOk = blockers.filter((b) => b.status === "not-ok").map((b) => b.name);
  if (notOk.length > 0) return { kind: "blocked", by: notOk };
  const pending = blockers.filter((b) => b.status === "pending").map((b) => b.name);
  return pending.length > 0 ? { kind: "waiting", on: pending } : { kind: "ready" };
}
