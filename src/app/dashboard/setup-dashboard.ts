/**
 * The dashboard's Setup section on the App's side: doctor's reads of one repository through the
 * installation's client (and the App's own JWT for its installation), each a conditional GET, so
 * that re-reading an unchanged setup costs 304s only. A read is made again at most every
 * `maxAgeMs`, or at once after `invalidate` (a push to the default branch may have changed the
 * configuration or the workflows); a read the App is refused (environment secrets, without the
 * Secrets permission) is not asked again for `refusedForMs`.
 */
import type { Octokit } from "@octokit/rest";
import { createConditionalGet, type ConditionalGet } from "../../adapters/github/conditional-get.js";
import { readSetupFacts } from "../../adapters/github/read-setup-facts.js";
import { statusOf } from "../../adapters/github/status-of.js";
import { setupSectionOf, type SetupSection } from "../../core/dashboard/setup-section.js";
import { doctorChecks } from "../../core/setup/doctor-checks.js";
import { repoKey, type RepoRef } from "../app-octokit.js";

export interface SetupDashboard {
  /** The section, read again when stale or invalidated; the last one (or undefined) when the read fails. */
  refresh(octokit: Octokit, repo: RepoRef): Promise<SetupSection | undefined>;
  /** The last section read, without any request. */
  current(repo: RepoRef): SetupSection | undefined;
  /** The setup may have changed: the next refresh reads (conditionally). */
  invalidate(repo: RepoRef): void;
}

export interface SetupDashboardOptions {
  readonly now: () => number;
  readonly maxAgeMs: number;
  /** How long a refused read (401, 403) is not asked again: permissions change rarely. Default one day. */
  readonly refusedForMs?: number;
  /** A client authenticated as the App itself: only it may read a repository's installation. */
  readonly appOctokit: () => Promise<Octokit>;
  readonly log?: { warn(obj: object, msg: string): void };
}

interface Entry {
  readAt: number;
  section?: SetupSection;
  conditional: ConditionalGet;
}

/** A conditional GET that also remembers refusals for a while, answering them again without a request. */
function rememberingRefusals(conditional: ConditionalGet, now: () => number, refusedForMs: number): ConditionalGet {
  const refused = new Map<string, { until: number; error: unknown }>();
  return async (key, fetchPage) => {
    const known = refused.get(key);
    if (known !== undefined && now() < known.until) throw known.error;
    try {
      return await conditional(key, fetchPage);
    } catch (err) {
      const status = statusOf(err);
      if (status === 401 || status === 403) refused.set(key, { until: now() + refusedForMs, error: err });
      throw err;
    }
  };
}

export function createSetupDashboard(options: SetupDashboardOptions): SetupDashboard {
  const entries = new Map<string, Entry>();
  const refusedForMs = options.refusedForMs ?? 86_400_000;
  const entryOf = (repo: RepoRef): Entry => {
    const key = repoKey(repo);
    let entry = entries.get(key);
    if (entry === undefined) {
      entry = { readAt: Number.NEGATIVE_INFINITY, conditional: rememberingRefusals(createConditionalGet(), options.now, refusedForMs) };
      entries.set(key, entry);
    }
    return entry;
  };
  return {
    async refresh(octokit, repo) {
      const entry = entryOf(repo);
      const now = options.now();
      if (now - entry.readAt < options.maxAgeMs) return entry.section;
      try {
        const facts = await readSetupFacts(repo, { octokit, appOctokit: await options.appOctokit(), conditional: entry.conditional });
        entry.section = setupSectionOf(`${repo.owner}/${repo.repo}`, doctorChecks(facts));
        entry.readAt = now;
      } catch (err) {
        options.log?.warn({ repo: repoKey(repo), err: err instanceof Error ? err.message : String(err) }, "bosun: could not read the repository's setup for the dashboard; the next tick retries");
      }
      return entry.section;
    },
    current: (repo) => entries.get(repoKey(repo))?.section,
    invalidate(repo) {
      const entry = entries.get(repoKey(repo));
      if (entry !== undefined) entry.readAt = Number.NEGATIVE_INFINITY;
    },
  };
}
