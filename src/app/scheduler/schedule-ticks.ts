import type { Octokit } from "@octokit/rest";
import type { Probot } from "probot";

/**
 * Ticks every repository of every installation on a timer: webhooks can be lost, and a lease can
 * run out with no event at all, so the schedule is what makes the scheduler eventually right.
 */
export function scheduleTicks(app: Probot, scheduler: { tickRepo(octokit: Octokit, owner: string, repo: string, defaultBranch: string): Promise<void> }, everyMs: number): () => void {
  const sweep = async (): Promise<void> => {
    const appOctokit = await app.auth();
    const installations = await appOctokit.paginate(appOctokit.rest.apps.listInstallations, { per_page: 100 });
    for (const installation of installations) {
      const octokit = (await app.auth(installation.id)) as unknown as Octokit;
      const repos = await octokit.paginate(octokit.rest.apps.listReposAccessibleToInstallation, { per_page: 100 });
      for (const repo of repos) await scheduler.tickRepo(octokit, repo.owner.login, repo.name, repo.default_branch);
    }
  };
  const timer = setInterval(() => {
    sweep().catch((err: unknown) => app.log.error({ err: err instanceof Error ? err.message : String(err) }, "bosun: scheduled sweep failed; the next one retries"));
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
