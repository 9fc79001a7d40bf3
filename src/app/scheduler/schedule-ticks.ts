import type { Octokit } from "@octokit/rest";
import type { Probot } from "probot";
import { createInstalledRepoLister } from "../list-installed-repos.js";

/**
 * Ticks every repository of every installation on a timer: webhooks can be lost, and a lease can
 * run out with no event at all, so the schedule is what makes the scheduler eventually right.
 */
export function scheduleTicks(app: Probot, scheduler: { tickRepo(octokit: Octokit, owner: string, repo: string, defaultBranch: string): Promise<void> }, everyMs: number): () => void {
  // Conditional listings: an idle sweep over unchanged installations costs 304s only.
  const listRepos = createInstalledRepoLister();
  const sweep = async (): Promise<void> => {
    const appOctokit = (await app.auth()) as unknown as Octokit;
    for (const { octokit, repos } of await listRepos(appOctokit, async (id) => (await app.auth(id)) as unknown as Octokit)) {
      for (const repo of repos) await scheduler.tickRepo(octokit, repo.owner, repo.repo, repo.defaultBranch);
    }
  };
  const timer = setInterval(() => {
    sweep().catch((err: unknown) => app.log.error({ err: err instanceof Error ? err.message : String(err) }, "bosun: scheduled sweep failed; the next one retries"));
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
