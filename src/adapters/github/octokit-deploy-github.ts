import type { Octokit } from "@octokit/rest";
import type { DeployStatusReporter } from "../../action/verify/deploy-status-reporter.js";
import { DONE_LABEL, NEEDS_HUMAN_LABEL } from "../../action/verify/item-lander.js";
import type { ItemLander, MergedPull, Unexamined } from "../../action/verify/item-lander.js";
import { NO_BASE_REASON } from "../../action/verify/land-deployed-items.js";

/**
 * Bounds on what one run may cost: compare pages read (100 commits each), commits whose pull
 * requests are looked up (one request each, newest first), deployments scanned. What the bounds
 * leave out is counted and reported, never dropped silently.
 */
const MAX_COMPARE_PAGES = 10;
const MAX_EXAMINED_COMMITS = 300;
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
      const range = base === undefined ? { shas: [head], total: 1 } : await commitsInRange(octokit, owner, name, base, head);
      const examined = range.shas.slice(-MAX_EXAMINED_COMMITS);
      const pulls = new Map<number, MergedPull>();
      for (const sha of examined) {
        const { data } = await octokit.rest.repos.listPullRequestsAssociatedWithCommit({ owner, repo: name, commit_sha: sha, per_page: 100 });
        for (const pr of data) {
          if (pr.merged_at !== null && !pulls.has(pr.number)) pulls.set(pr.number, { number: pr.number, body: pr.body });
        }
      }
      const left = range.total - examined.length;
      const unexamined: Unexamined | undefined =
        base === undefined
          ? { commits: undefined, reason: NO_BASE_REASON }
          : left > 0
            ? { commits: left, reason: `the range ${base.slice(0, 12)}...${head.slice(0, 12)} has ${range.total} commits; the newest ${examined.length} were examined` }
            : undefined;
      return { pulls: [...pulls.values()], ...(unexamined === undefined ? {} : { unexamined }) };
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

/** The commits in `base...head`, oldest first, read page by page up to MAX_COMPARE_PAGES, and how many there are. */
async function commitsInRange(octokit: Octokit, owner: string, repo: string, base: string, head: string): Promise<{ shas: string[]; total: number }> {
  const shas: string[] = [];
  const seen = new Set<string>();
  let total = 0;
  for (let page = 1; page <= MAX_COMPARE_PAGES; page++) {
    const { data } = await octokit.rest.repos.compareCommitsWithBasehead({ owner, repo, basehead: `${base}...${head}`, per_page: 100, page });
    total = data.total_commits;
    for (const c of data.commits) {
      if (seen.has(c.sha)) continue;
      seen.add(c.sha);
      shas.push(c.sha);
    }
    if (data.commits.length < 100 || shas.length >= total) break;
  }
  return { shas, total: Math.max(total, shas.length) };
}
