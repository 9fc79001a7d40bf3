import type { Octokit } from "@octokit/rest";
import type { DeployStatusReporter } from "../../action/verify/deploy-status-reporter.js";
import { DONE_LABEL, NEEDS_HUMAN_LABEL } from "../../action/verify/item-lander.js";
import type { ItemLander, MergedPull } from "../../action/verify/item-lander.js";

/** Compare pages read (100 commits each) and deployments scanned: bounds on what one run may cost. */
const MAX_COMPARE_PAGES = 3;
const MAX_COMMITS = 100;
const MAX_DEPLOYMENTS = 10;

/**
 * The verify mode's GitHub, over Octokit (real GitHub or the fake: pass `baseUrl`). Pull requests
 * in a range come from `compare base...head` then `GET /commits/{sha}/pulls` per commit, which
 * finds merge, squash and rebase merges alike; merged ones only, each once.
 */
export function createOctokitDeployGitHub(octokit: Octokit, repo: { readonly owner: string; readonly repo: string }): DeployStatusReporter & ItemLander {
  const { owner, repo: name } = repo;
  return {
    async createDeploymentStatus(input) {
      await octokit.rest.repos.createDeploymentStatus({
        owner,
        repo: name,
        deployment_id: input.deploymentId,
        state: input.state,
        description: input.description,
        log_url: input.logUrl,
        ...(input.environmentUrl === undefined ? {} : { environment_url: input.environmentUrl }),
      });
    },

    async createCommitStatus(input) {
      await octokit.rest.repos.createCommitStatus({
        owner,
        repo: name,
        sha: input.sha,
        state: input.state,
        context: input.context,
        description: input.description,
        target_url: input.targetUrl,
      });
    },

    async previousDeployedSha(environment, beforeDeploymentId) {
      const { data } = await octokit.rest.repos.listDeployments({ owner, repo: name, environment, per_page: MAX_DEPLOYMENTS + 1 });
      const older = data.filter((d) => beforeDeploymentId === undefined || d.id < beforeDeploymentId).slice(0, MAX_DEPLOYMENTS);
      for (const deployment of older) {
        const statuses = await octokit.rest.repos.listDeploymentStatuses({ owner, repo: name, deployment_id: deployment.id, per_page: 1 });
        // GitHub turns a superseded non-production deployment's success into `inactive`: it was live.
        const state = statuses.data[0]?.state;
        if (state === "success" || state === "inactive") return deployment.sha;
      }
      return undefined;
    },

    async mergedPullsInRange(base, head) {
      const shas = base === undefined ? [head] : await commitsInRange(octokit, owner, name, base, head);
      const pulls = new Map<number, MergedPull>();
      for (const sha of shas) {
        const { data } = await octokit.rest.repos.listPullRequestsAssociatedWithCommit({ owner, repo: name, commit_sha: sha, per_page: 100 });
        for (const pr of data) {
          if (pr.merged_at !== null && !pulls.has(pr.number)) pulls.set(pr.number, { number: pr.number, body: pr.body });
        }
      }
      return [...pulls.values()];
    },

    async landItem(issue, comment) {
      await octokit.rest.issues.createComment({ owner, repo: name, issue_number: issue, body: comment });
      await octokit.rest.issues.addLabels({ owner, repo: name, issue_number: issue, labels: [DONE_LABEL] });
      await octokit.rest.issues.update({ owner, repo: name, issue_number: issue, state: "closed", state_reason: "completed" });
    },

    async markNeedsHuman(issue, comment) {
      await octokit.rest.issues.createComment({ owner, repo: name, issue_number: issue, body: comment });
      await octokit.rest.issues.addLabels({ owner, repo: name, issue_number: issue, labels: [NEEDS_HUMAN_LABEL] });
    },
  };
}

/** The commits in `base...head`, newest last, at most MAX_COMMITS (the newest ones are kept). */
async function commitsInRange(octokit: Octokit, owner: string, repo: string, base: string, head: string): Promise<string[]> {
  const shas: string[] = [];
  for (let page = 1; page <= MAX_COMPARE_PAGES; page++) {
    const { data } = await octokit.rest.repos.compareCommitsWithBasehead({ owner, repo, basehead: `${base}...${head}`, per_page: 100, page });
    shas.push(...data.commits.map((c) => c.sha));
    if (data.commits.length < 100 || shas.length >= data.total_commits) break;
  }
  return shas.slice(-MAX_COMMITS);
}
