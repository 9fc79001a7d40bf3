/** Walks of the commit graph: what is reachable, what lies between two commits, their merge base. */
import type { RepoState } from "./state.js";

/** Every commit reachable from `from` (itself included). */
export function reachable(repo: RepoState, from: string): Set<string> {
  const seen = new Set<string>();
  const stack = [from];
  while (stack.length > 0) {
    const sha = stack.pop() as string;
    if (seen.has(sha)) continue;
    seen.add(sha);
    stack.push(...(repo.commits.get(sha)?.parents ?? []));
  }
  return seen;
}

/** Commits reachable from `head` and not from `base`, oldest first (parents before children). */
export function between(repo: RepoState, base: string, head: string): string[] {
  const inBase = reachable(repo, base);
  const out: string[] = [];
  const visit = (sha: string, seen: Set<string>): void => {
    if (seen.has(sha) || inBase.has(sha)) return;
    seen.add(sha);
    for (const parent of repo.commits.get(sha)?.parents ?? []) visit(parent, seen);
    out.push(sha);
  };
  visit(head, new Set());
  return out;
}

/** The first commit reachable from `from`, breadth first, that `others` also reach: the merge base. */
export function nearestCommon(repo: RepoState, from: string, others: ReadonlySet<string>): string | undefined {
  const queue = [from];
  const seen = new Set<string>();
  for (let sha = queue.shift(); sha !== undefined; sha = queue.shift()) {
    if (others.has(sha)) return sha;
    if (seen.has(sha)) continue;
    seen.add(sha);
    queue.push(...(repo.commits.get(sha)?.parents ?? []));
  }
  return undefined;
}

/** The merge base of two commits (the nearest common ancestor from `head`), or undefined when they share none. */
export function mergeBase(repo: RepoState, base: string, head: string): string | undefined {
  return nearestCommon(repo, head, reachable(repo, base));
}
