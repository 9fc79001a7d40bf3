import type { Octokit } from "@octokit/rest";
import type { Probot } from "probot";
import { createInstalledRepoLister } from "../list-installed-repos.js";

/**
 * Ticks every repository of every installation on a timer: webhooks can be lost, and a lease can
 * run out with no event at all, so the schedule is what makes the scheduler eventually right.
 */
export function scheduleTicks(app: Probot, scheduler: { tickRepo(octokit: Octokit, owner: string, repo: string, defaultBranch: string, unlessReadWithinMs?: number): Promise<void> }, everyMs: number, listing: { readonly now: () => number; readonly maxAgeMs: number }): () => void {
  // Listings reused for a while, then read conditionally: an idle sweep costs no listing request,
  // and over unchanged installations a 304. Any change to what they show comes as a webhook.
  const listRepos = createInstalledRepoLister(listing);
  // GitHub sends both to every App, unsubscribed (docs/app.md, "installation").
  app.on(["installation", "installation_repositories"], () => listRepos.invalidate());
  const sweep = async (): Promise<void> => {
    const appOctokit = (await app.auth()) as unknown as Octokit;
    for (const { octokit, repos } of await listRepos(appOctokit, async (id) => (await app.auth(id)) as unknown as Octokit)) {
      // A repository this process ticked within half a period (a webhook's tick) is not swept: the
      // next sweep comes within the period, so no repository goes longer than 1.5 periods unread.
      for (const repo of repos) await scheduler.tickRepo(octokit, repo.owner, repo.repo, repo.defaultBranch, everyMs / 2);
    }
  };
  const timer = setInterval(() => {
    sweep().catch((err: unknown) => app.log.error({ err: err instanceof Error ? err.message : String(err) }, "bosun: scheduled sweep failed; the next one retries"));
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
