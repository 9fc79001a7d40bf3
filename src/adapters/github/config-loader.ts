import type { Octokit } from "@octokit/rest";
import { DEFAULT_CONFIG, type BosunConfig } from "../../core/config/bosun-config.js";
import { parseConfig, type ConfigProblem } from "../../core/config/parse-config.js";
import { repoKey, type RepoRef } from "./repo-ref.js";
import { statusOf } from "./status-of.js";

/** What reading the configuration needs of a client: one GET (Probot's, the Action's and the CLI's Octokit all fit). */
type ConfigOctokit = Pick<Octokit, "request">;

/** Where Bosun's configuration lives in a repository, read at the default branch. */
export const CONFIG_PATH = ".github/bosun.yml";

/** The configuration in force and, when the file is broken, what is wrong with it by field. */
export interface LoadedConfig {
  /** The file's config when valid; else the last valid one seen in this process; else the defaults. */
  readonly config: BosunConfig;
  readonly problems: readonly ConfigProblem[];
  /** True when the problems differ from the previous load of this repository (report them again). */
  readonly problemsChanged: boolean;
}

export interface ConfigLoader {
  /** Reads (or revalidates) the repository's `.github/bosun.yml`. */
  load(octokit: ConfigOctokit, repo: RepoRef): Promise<LoadedConfig>;
  /** The file may have changed (a push to the default branch): the next load revalidates it. */
  invalidate(repo: RepoRef): void;
}

export interface ConfigLoaderOptions {
  /** The clock, in ms. */
  readonly now: () => number;
  /**
   * How long a read is trusted before the next conditional GET (default 0: revalidate every call;
   * a 304 is free against the rate limit but is still a round trip).
   */
  readonly maxAgeMs?: number;
}

interface Entry {
  etag?: string;
  checkedAt: number;
  lastGood?: BosunConfig;
  problems: readonly ConfigProblem[];
  problemsKey: string;
}

/**
 * A per-repository configuration cache: conditional GETs with the last ETag (a repeat read is a
 * free 304), the last valid config kept when the file breaks, a missing file read as the defaults.
 */
export function createConfigLoader(options: ConfigLoaderOptions): ConfigLoader {
  const cache = new Map<string, Entry>();
  const maxAge = options.maxAgeMs ?? 0;
  const result = (entry: Entry, previousKey: string | undefined): LoadedConfig => ({
    config: entry.lastGood ?? DEFAULT_CONFIG,
    problems: entry.problems,
    problemsChanged: (previousKey ?? "") !== entry.problemsKey,
  });
  return {
    invalidate(repo) {
      const cached = cache.get(repoKey(repo));
      if (cached !== undefined) cached.checkedAt = Number.NEGATIVE_INFINITY;
    },
    async load(octokit, repo) {
      const key = repoKey(repo);
      const now = options.now();
      const cached = cache.get(key);
      if (cached !== undefined && now - cached.checkedAt < maxAge) return result(cached, cached.problemsKey);
      const previousKey = cached?.problemsKey;
      let text: string | undefined;
      let etag: string | undefined;
      try {
        // No `ref`: the contents API reads the default branch, which saves looking it up.
        const response = await octokit.request("GET /repos/{owner}/{repo}/contents/{path}", {
          ...repo,
          path: CONFIG_PATH,
          mediaType: { format: "raw" },
          headers: cached?.etag === undefined ? {} : { "if-none-match": cached.etag },
        });
        text = typeof response.data === "string" ? response.data : JSON.stringify(response.data);
        etag = response.headers.etag;
      } catch (error) {
        const status = statusOf(error);
        if (status === 304 && cached !== undefined) {
          cached.checkedAt = now;
          return result(cached, previousKey);
        }
        if (status === 404) {
          const entry: Entry = { checkedAt: now, lastGood: DEFAULT_CONFIG, problems: [], problemsKey: "" };
          cache.set(key, entry);
          return result(entry, previousKey);
        }
        // GitHub is failing: the config we had still holds; with none, the event cannot be judged.
        if (cached !== undefined) return result(cached, previousKey);
        throw error;
      }
      const parsed = parseConfig(text);
      const entry: Entry = parsed.ok
        ? { checkedAt: now, lastGood: parsed.config, problems: [], problemsKey: "" }
        : { checkedAt: now, problems: parsed.problems, problemsKey: JSON.stringify(parsed.problems), ...(cached?.lastGood === undefined ? {} : { lastGood: cached.lastGood }) };
      if (etag !== undefined) entry.etag = etag;
      cache.set(key, entry);
      return result(entry, previousKey);
    },
  };
}

/** One read of a repository's configuration (an Action run, a command): no cache kept. */
export function readBosunConfig(octokit: ConfigOctokit, repo: RepoRef): Promise<LoadedConfig> {
  return createConfigLoader({ now: () => 0 }).load(octokit, repo);
}
