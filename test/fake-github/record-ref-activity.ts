/**
 * GitHub's record of who moved which branch (`GET /repos/{o}/{r}/activity`): every write to a
 * `refs/heads/*` ref — over REST, GraphQL `updateRefs` or a seeded push — with the account that
 * made it. Only branches are recorded, as GitHub's list is of branch activity.
 */
import type { RefChange } from "./emit-ref-change.js";
import { nextId, type ActivityRecord, type FakeState, type RepoState } from "./state.js";

const ZERO = "0".repeat(40);

/** Records one ref change as a branch activity of `actor` (null: an account GitHub no longer names). */
export function recordRefActivity(state: FakeState, repo: RepoState, change: RefChange, actor: string | null): void {
  if (!change.ref.startsWith("refs/heads/")) return;
  const activityType: ActivityRecord["activityType"] = change.before === undefined ? "branch_creation" : change.after === undefined ? "branch_deletion" : change.forced ? "force_push" : "push";
  repo.activities.push({ id: nextId(state), ref: change.ref, before: change.before ?? ZERO, after: change.after ?? ZERO, activityType, actor, at: state.clock.now() });
}
