import type { Octokit } from "@octokit/rest";
import type { PullsOfCommit } from "./relayed-pull-request.js";

/** The pull requests GitHub associates with a commit (`GET /repos/{o}/{r}/commits/{sha}/pulls`); an unknown commit has none. */
export function octokitPullsOfCommit(octokit: Octokit, repo: { owner: string; repo: string }): PullsOfCommit {
  return async (sha) => {
    try {
      const { data } = await octokit.rest.repos.listPullRequestsAssociatedWithCommit({ ...repo, commit_sha: sha, per_page: 100 });
      return data.map((p) => ({ number: p.number, headSha: p.head.sha, state: p.state }));
    } catch (err) {
      // An unknown commit answers 404, or 422 "No commit found".
      const status = (err as { status?: unknown }).status;
      if (status === 404 || status === 422) return [];
      throw err;
    }
  };
}
