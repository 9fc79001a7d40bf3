/** The webhooks one ref change sends, shared by the REST ref routes and GraphQL's `updateRefs` so they cannot drift. */
import type { RouteContext } from "./route.js";
import type { FakeState, RepoState } from "./state.js";
import { pushCommits } from "./push-commits.js";
import { syncPull } from "./sync-pull.js";
import { pullJson } from "./to-json-pull.js";

export interface RefChange {
  /** Full name, e.g. `refs/heads/x`. */
  ref: string;
  /** Undefined: the ref was created. */
  before: string | undefined;
  /** Undefined: the ref was deleted. */
  after: string | undefined;
  /** A non-fast-forward update that force allowed. */
  forced: boolean;
}

function shortRef(ref: string): string {
  return ref.replace(/^refs\/(heads|tags)\//, "");
}

/**
 * `create` for a new ref, `delete` for a deleted one, `push` for an updated branch; a branch that
 * moved moves the open pull requests on it (`pull_request.synchronize` for those it heads).
 */
export function emitRefChange(state: FakeState, ctx: RouteContext, repo: RepoState, change: RefChange): void {
  const { ref, before, after, forced } = change;
  const refType = ref.startsWith("refs/tags/") ? "tag" : "branch";
  if (before === undefined) {
    ctx.emit({ repo, event: "create", fields: () => ({ ref: shortRef(ref), ref_type: refType, master_branch: repo.defaultBranch, description: null, pusher_type: "user" }) });
  } else if (after === undefined) {
    ctx.emit({ repo, event: "delete", fields: () => ({ ref: shortRef(ref), ref_type: refType, pusher_type: "user" }) });
  } else if (ref.startsWith("refs/heads/")) {
    const commits = pushCommits(repo, before, after);
    ctx.emit({ repo, event: "push", fields: () => ({ ref, before, after, forced, created: false, deleted: false, commits, head_commit: commits[commits.length - 1] ?? null }) });
  }
  if (!ref.startsWith("refs/heads/") || after === undefined) return;
  const branch = ref.slice("refs/heads/".length);
  for (const pull of repo.pulls.values()) {
    if (pull.derived !== true || pull.merged || repo.issues.get(pull.number)?.state !== "open") continue;
    if (pull.baseRef === branch) syncPull(state, repo, pull);
    if (pull.headRef !== branch) continue;
    const previous = pull.headSha;
    syncPull(state, repo, pull);
    if (pull.headSha !== previous) ctx.emit({ repo, event: "pull_request", action: "synchronize", fields: () => ({ number: pull.number, before: previous, after: pull.headSha, pull_request: pullJson(state, repo, pull) }) });
  }
}
