import type { Octokit } from "@octokit/rest";
import type { DeployStatusReporter } from "../../ports/deploy-status-reporter.js";
import { DEFAULT_LABELS } from "../../core/config/labels.js";
import type { ItemLander, MergedPull } from "../../ports/item-lander.js";
import { NO_BASE_REASON } from "../../ports/item-lander.js";
import { isDeployer } from "../../core/verify/untrusted-deployment.js";

/**
 * Bounds on what one run may cost: compare pages read (100 commits each), commits whose pull
 * requests are looked up (one request each, newest first), deployments scanned. What the bounds
 * leave out is counted and reported, never dropped silently.
 */
const MAX_COMPARE_PAGES = 10;
const MAX_EXAMINED_COMMITS = 300;
const MAX_DEPLOYMENTS = 10;
/** Pages of recently updated closed pull requests read to find those merged in unexamined commits. */
const MAX_PULL_LIST_PAGES = 3;

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

    async previousDeployedSha(environment, beforeDeploymentId, deployers) {
      const { data } = await octokit.rest.repos.listDeployments({ owner, repo: name, environment, per_page: MAX_DEPLOYMENTS + 1 });
      const older = data.filter((d) => beforeDeploymentId === undefined || d.id < beforeDeploymentId).slice(0, MAX_DEPLOYMENTS);
      for (const deployment of older) {
        // The deployment's and the status's `creator` are GitHub's record of who made them.
        if (!isDeployer(deployment.creator?.login, { deployers })) continue;
        const statuses = await octokit.rest.repos.listDeploymentStatuses({ owner, repo: name, deployment_id: deployment.id, per_page: 100 });
        // GitHub turns a superseded non-production deployment's success into `inactive`: it was live.
        const state = statuses.data[0]?.state;
        const succeeded = statuses.data.some((s) => s.state === "success" && isDeployer(s.creator?.login, { deployers }));
        if ((state === "success" || state === "inactive") && succeeded) return deployment.sha;
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
      if (base === undefined) return { pulls: [...pulls.values()], unexamined: { commits: undefined, reason: NO_BASE_REASON, pulls: [] } };
      if (left <= 0) return { pulls: [...pulls.values()] };
      const skipped = new Set(range.shas.slice(0, range.shas.length - examined.length));
      return {
        pulls: [...pulls.values()],
        unexamined: {
          commits: left,
          reason: `the range ${base.slice(0, 12)}...${head.slice(0, 12)} has ${range.total} commits; the newest ${examined.length} were examined`,
          pulls: await pullsMergedAs(octokit, owner, name, skipped, new Set(pulls.keys())),
        },
      };
    },

    async landItem(issue, comment) {
      await octokit.rest.issues.createComment({ owner, repo: name, issue_number: issue, body: comment });
      await octokit.rest.issues.addLabels({ owner, repo: name, issue_number: issue, labels: [DEFAULT_LABELS.done] });
      await octokit.rest.issues.update({ owner, repo: name, issue_number: issue, state: "closed", state_reason: "completed" });
    },

    async markNeedsHuman(issue, comment) {
      await octokit.rest.issues.createComment({ owner, repo: name, issue_number: issue, body: comment });
      await octokit.rest.issues.addLabels({ owner, repo: name, issue_number: issue, labels: [DEFAULT_LABELS.needsHuman] });
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

/**
 * Merged pull requests whose merge commit is one of `shas` (commits of the range that were read
 * but not looked up one by one), from a few pages of recently updated closed pull requests: a
 * bounded read that finds what can still be named. After a merge, `merge_commit_sha` is the merge
 * commit, the squashed commit, or the commit a rebase moved the base branch to (GitHub REST,
 * "Get a pull request"), so it lies in the deployed range whichever way the PR was merged. A pull
 * request updated long after its merge may fall outside these pages: the count still says so.
 */
async function pullsMergedAs(octokit: Octokit, owner: string, repo: string, shas: ReadonlySet<string>, known: ReadonlySet<number>): Promise<MergedPull[]> {
  const found: MergedPull[] = [];
  if (shas.size === 0) return found;
  for (let page = 1; page <= MAX_PULL_LIST_PAGES; page++) {
    const { data } = await octokit.rest.pulls.list({ owner, repo, state: "closed", sort: "updated", direction: "desc", per_page: 100, page });
    for (const pr of data) {
      if (pr.merged_at !== null && pr.merge_commit_sha !== null && shas.has(pr.merge_commit_sha) && !known.has(pr.number)) found.push({ number: pr.number, body: pr.body });
    }
    if (data.length < 100) break;
  }
  return found;
}
