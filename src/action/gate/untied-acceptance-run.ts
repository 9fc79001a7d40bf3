import type { BranchHistoryReader, PullFacts } from "../../ports/gate-github.js";

/** More pull requests than this from one branch are not read: the run is could-not-check. */
export const MAX_PULLS_PER_BRANCH = 100;

/** The head a run names: its branch and the repository that branch lives in. */
export interface RunHead {
  readonly headBranch?: string;
  readonly headRepo?: string;
}

/**
 * Why an acceptance run cannot be taken as the judged pull request's, or undefined when it can.
 * A `pull_request` run uses the workflow file of the merge of its PR into that PR's base, and
 * GitHub's record of a run names only its head branch and commit: its `pull_requests` lists the
 * PRs open NOW with that head, which "do not necessarily indicate pull requests that triggered the
 * run". An agent that opens a second PR of the same head into a base whose acceptance workflow it
 * doctored, and closes it (or retargets it) while the run is in progress, would otherwise hand that
 * run to the PR into main. So the run counts only when:
 * - its head branch and repository are the judged PR's (another branch at the same commit is
 *   another PR's run);
 * - every pull request ever opened from that branch, closed ones too, merges into a judged base;
 * - and none of them ever had its base changed (which base a run merged into is not recorded).
 */
export async function untiedAcceptanceRun(github: BranchHistoryReader, run: RunHead, pull: PullFacts, unjudged: (baseRef: string) => string | undefined, what: string): Promise<string | undefined> {
  if (run.headBranch === undefined || run.headBranch === "" || run.headRepo === undefined || run.headRepo === "") {
    return `${what} names no head branch or head repository, so it cannot be tied to pull request #${pull.number}`;
  }
  const judgedHead = `${pull.headRepo ?? "(a deleted repository)"}:${pull.headRef}`;
  if (run.headBranch !== pull.headRef || pull.headRepo === undefined || run.headRepo.toLowerCase() !== pull.headRepo.toLowerCase()) {
    return `${what} ran for branch ${run.headRepo}:${run.headBranch}, not the judged pull request's head ${judgedHead}: it is another pull request's run, whatever commit it shares`;
  }
  const owner = run.headRepo.slice(0, run.headRepo.indexOf("/"));
  const pulls = await github.pullsFromHead(owner, run.headBranch, MAX_PULLS_PER_BRANCH);
  if (pulls.length > MAX_PULLS_PER_BRANCH) return `more than ${MAX_PULLS_PER_BRANCH} pull requests were opened from ${judgedHead}; which of them started ${what} cannot be ruled out`;
  if (!pulls.some((p) => p.number === pull.number)) return `GitHub lists no pull request #${pull.number} from ${judgedHead} (the list may lag): ${what} cannot be tied to it yet`;
  for (const p of pulls) {
    const why = unjudged(p.baseRef);
    if (why !== undefined) {
      return `pull request #${p.number} (${p.state}) from the same branch ${judgedHead} merges into '${p.baseRef}': a pull_request run uses the workflow file of the merge into its own PR's base, and GitHub does not record which PR of a branch started a run, so ${what} may have run another base's acceptance workflow. Push the work to a new branch and open one pull request into a judged base`;
    }
  }
  for (const p of pulls) {
    const changes = await github.baseChanges(p.number);
    if (changes.length > 0) {
      return `the base of pull request #${p.number} from ${judgedHead} was changed (${changes.at(-1) ?? ""}): a run started before that merged into another base, and GitHub does not record which base a run used. Push the work to a new branch and open one pull request into a judged base`;
    }
  }
  return undefined;
}
