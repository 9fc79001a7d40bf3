import type { Octokit } from "@octokit/rest";
import { statusOf } from "../adapters/github/status-of.js";

/** One repository the app is installed on, as the timed sweep ticks it. */
export interface InstalledRepo {
  readonly owner: string;
  readonly repo: string;
  readonly defaultBranch: string;
}

type Page<T> = { items: readonly T[]; etag: string | undefined };

/**
 * Lists, for the timed sweep, the app's installations and each one's repositories with
 * conditional requests: every page is asked with the ETag of its last answer, and a 304 (free
 * against the rate limit) reuses that answer. An idle sweep of unchanged installations is then
 * 304s only. `auth(id)` is the installation's client (a fresh token each time is fine: the ETag is
 * the listing's, not the token's).
 */
export interface InstalledRepoLister {
  (app: Octokit, auth: (installationId: number) => Promise<Octokit>): Promise<Array<{ installationId: number; octokit: Octokit; repos: InstalledRepo[] }>>;
  /** An installation, its repositories or a repository changed (a webhook said so): list again at the next sweep. */
  invalidate(): void;
}

/**
 * With `maxAgeMs`, a listing is reused without a request for that long (the installation and
 * installation_repositories webhooks drop it at once: `invalidate`); the age only
 * bounds a webhook lost or heard by another replica.
 */
export function createInstalledRepoLister(options: { readonly now?: () => number; readonly maxAgeMs?: number } = {}): InstalledRepoLister {
  const cache = new Map<string, Page<unknown>>();
  const now = options.now ?? Date.now;
  let listed: { at: number; installations: Array<{ id: number; repos: InstalledRepo[] }> } | undefined;

  async function pages<T>(key: string, fetchPage: (page: number, headers: Record<string, string>) => Promise<Page<T>>): Promise<T[]> {
    const out: T[] = [];
    for (let page = 1; page <= 100; page++) {
      const cached = cache.get(`${key}:${page}`) as Page<T> | undefined;
      let answer: Page<T>;
      try {
        answer = await fetchPage(page, cached?.etag === undefined ? {} : { "if-none-match": cached.etag });
        cache.set(`${key}:${page}`, answer);
      } catch (err) {
        if (statusOf(err) !== 304 || cached === undefined) throw err;
        answer = cached;
      }
      out.push(...answer.items);
      if (answer.items.length < 100) break;
    }
    return out;
  }

  const list = async (app: Octokit, auth: (installationId: number) => Promise<Octokit>): Promise<Array<{ installationId: number; octokit: Octokit; repos: InstalledRepo[] }>> => {
    const kept = listed;
    if (kept !== undefined && now() - kept.at < (options.maxAgeMs ?? 0)) return Promise.all(kept.installations.map(async ({ id, repos }) => ({ installationId: id, octokit: await auth(id), repos })));
    const at = now();
    const installations = await pages<{ id: number }>("installations", async (page, headers) => {
      const r = await app.rest.apps.listInstallations({ per_page: 100, page, headers });
      return { items: r.data.map((i) => ({ id: i.id })), etag: r.headers.etag };
    });
    const out: Array<{ installationId: number; octokit: Octokit; repos: InstalledRepo[] }> = [];
    for (const { id } of installations) {
      const octokit = await auth(id);
      const repos = await pages<InstalledRepo>(`repos:${id}`, async (page, headers) => {
        const r = await octokit.rest.apps.listReposAccessibleToInstallation({ per_page: 100, page, headers });
        return { items: r.data.repositories.map((x) => ({ owner: x.owner.login, repo: x.name, defaultBranch: x.default_branch })), etag: r.headers.etag };
      });
      out.push({ installationId: id, octokit, repos });
    }
    listed = { at, installations: out.map((i) => ({ id: i.installationId, repos: i.repos })) };
    return out;
  };
  return Object.assign(list, {
    invalidate: () => {
      listed = undefined;
    },
  });
}
