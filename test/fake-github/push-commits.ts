/**
 * The `commits` of a `push` webhook as GitHub sends them: every commit reachable from `after` and
 * not from `before`, oldest first, at most 2048, each with the paths it `added`, `removed` and
 * `modified` against its first parent
 * (https://docs.github.com/en/webhooks/webhook-events-and-payloads#push).
 */
import { filesAt, isAncestor } from "./git-objects.js";
import type { RepoState } from "./state.js";

export const PUSH_COMMITS_MOST = 2048;

export interface PushCommit {
  readonly id: string;
  readonly tree_id: string;
  readonly distinct: boolean;
  readonly message: string;
  readonly added: string[];
  readonly removed: string[];
  readonly modified: string[];
}

export function pushCommits(repo: RepoState, before: string, after: string): PushCommit[] {
  const seen = new Set<string>();
  const order: string[] = [];
  const walk = [after];
  for (let sha = walk.pop(); sha !== undefined && order.length < PUSH_COMMITS_MOST; sha = walk.pop()) {
    if (seen.has(sha) || sha === before || isAncestor(repo, sha, before)) continue;
    seen.add(sha);
    const commit = repo.commits.get(sha);
    if (commit === undefined) continue;
    order.push(sha);
    walk.push(...commit.parents);
  }
  return order.reverse().map((sha) => {
    const commit = repo.commits.get(sha);
    const now = filesAt(repo, sha) ?? new Map<string, string>();
    const parent = commit?.parents[0];
    const was = parent === undefined ? new Map<string, string>() : (filesAt(repo, parent) ?? new Map<string, string>());
    return {
      id: sha,
      tree_id: commit?.tree ?? "",
      distinct: true,
      message: commit?.message ?? "",
      added: [...now.keys()].filter((p) => !was.has(p)).sort(),
      removed: [...was.keys()].filter((p) => !now.has(p)).sort(),
      modified: [...now.keys()].filter((p) => was.has(p) && was.get(p) !== now.get(p)).sort(),
    };
  });
}
