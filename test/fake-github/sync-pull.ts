/**
 * A pull request opened through the API follows git, as GitHub's does: its head is its branch's
 * tip, its commits and files are computed from the merge base, and `refs/pull/<n>/head` and
 * `refs/pull/<n>/merge` (the test merge commit a `pull_request` workflow run checks out) are kept.
 */
import { putCommit, putTree } from "./git-objects.js";
import { between } from "./git-graph.js";
import { diffFiles, mergeTrees } from "./merge-trees.js";
import type { FakeState, PullRecord, RepoState } from "./state.js";

/** Recomputes a git-derived pull request from its branches; a seeded one (`addPull`) is left alone. */
export function syncPull(state: FakeState, repo: RepoState, pull: PullRecord): void {
  if (pull.derived !== true || pull.merged) return;
  pull.headSha = repo.refs.get(`refs/heads/${pull.headRef}`) ?? pull.headSha;
  pull.baseSha = repo.refs.get(`refs/heads/${pull.baseRef}`) ?? pull.baseSha;
  pull.commits = between(repo, pull.baseSha, pull.headSha);
  pull.files = diffFiles(repo, pull.baseSha, pull.headSha);
  repo.refs.set(`refs/pull/${pull.number}/head`, pull.headSha);
  const merged = mergeTrees(repo, pull.baseSha, pull.headSha);
  pull.conflicts = merged.ok ? [] : merged.conflicts;
  if (!merged.ok) {
    repo.refs.delete(`refs/pull/${pull.number}/merge`);
    return;
  }
  const who = { name: "GitHub", email: "noreply@github.com" };
  const commit = putCommit(state, repo, { tree: putTree(repo, merged.tree.files, merged.tree.executables), parents: [pull.baseSha, pull.headSha], message: `Merge ${pull.headSha} into ${pull.baseSha}`, author: who, committer: who });
  repo.refs.set(`refs/pull/${pull.number}/merge`, commit.sha);
}
