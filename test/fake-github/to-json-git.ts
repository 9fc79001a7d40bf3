/** GitHub's JSON shapes for git refs and git commits. */
import type { CommitRecord, FakeState, RepoState } from "./state.js";
import { repoHtmlUrl, repoUrl } from "./to-json-user-repo.js";

function nodeIdOf(kind: string, key: string): string {
  return Buffer.from(`${kind}:${key}`).toString("base64").replace(/=+$/, "");
}

export function refJson(state: FakeState, repo: RepoState, ref: string, sha: string): Record<string, unknown> {
  return {
    ref,
    node_id: nodeIdOf("Ref", `${repo.id}:${ref}`),
    url: `${repoUrl(state, repo)}/git/${ref}`,
    object: { type: "commit", sha, url: `${repoUrl(state, repo)}/git/commits/${sha}` },
  };
}

/** `git-commit`, as `git/commits` create and get return it. */
export function gitCommitJson(state: FakeState, repo: RepoState, commit: CommitRecord): Record<string, unknown> {
  return {
    sha: commit.sha,
    node_id: nodeIdOf("Commit", commit.sha),
    url: `${repoUrl(state, repo)}/git/commits/${commit.sha}`,
    html_url: `${repoHtmlUrl(state, repo)}/commit/${commit.sha}`,
    author: commit.author,
    committer: commit.committer,
    message: commit.message,
    tree: { sha: commit.tree, url: `${repoUrl(state, repo)}/git/trees/${commit.tree}` },
    parents: commit.parents.map((sha) => ({
      sha,
      url: `${repoUrl(state, repo)}/git/commits/${sha}`,
      html_url: `${repoHtmlUrl(state, repo)}/commit/${sha}`,
    })),
    verification:
      commit.signedFor === undefined
        ? { verified: false, reason: "unsigned", signature: null, payload: null, verified_at: null }
        : { verified: true, reason: "valid", signature: `-----BEGIN PGP SIGNATURE-----\nfake signature for ${commit.signedFor}\n-----END PGP SIGNATURE-----`, payload: `tree ${commit.tree}`, verified_at: commit.committer.date },
  };
}
