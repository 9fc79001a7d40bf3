import type { BosunConfig } from "../../core/config/bosun-config.js";
import { LABEL_STYLE, POOL_LABEL_PREFIX, PRIORITY_STYLE, type LabelRole } from "../../core/config/labels.js";
import { repoKey, type AppOctokit, type RepoRef } from "../app-octokit.js";
import { statusOf } from "../../adapters/github/status-of.js";

/** A label Bosun creates when a repository lacks it. */
export interface LabelSpec {
  readonly name: string;
  readonly color: string;
  readonly description: string;
}

/** Bosun's labels under this configuration's names: roles, `P0`..`P4`, and `pool/<name>` per pool. */
export function labelSpecs(config: BosunConfig): LabelSpec[] {
  const roles = (Object.keys(LABEL_STYLE) as LabelRole[]).map((role) => ({ name: config.labels[role], ...LABEL_STYLE[role] }));
  const priorities = [0, 1, 2, 3, 4].map((b) => ({ name: `P${b}`, ...PRIORITY_STYLE }));
  const pools = Object.keys(config.pools).map((p) => ({ name: `${POOL_LABEL_PREFIX}${p}`, color: "bfdadc", description: `Bosun: route this item to the ${p} pool` }));
  return [...roles, ...priorities, ...pools];
}

/** Creates missing labels; returns how many it created. */
export type LabelBootstrap = (octokit: AppOctokit, repo: RepoRef, config: BosunConfig) => Promise<number>;

/**
 * Label bootstrap cached per repository and label set for the life of the process: the first write
 * to a repository lists its labels once and creates the missing ones; later calls cost nothing.
 * A failed bootstrap is forgotten so the next event tries again.
 */
export function createLabelBootstrap(): LabelBootstrap {
  const done = new Map<string, Promise<number>>();
  return (octokit, repo, config) => {
    const specs = labelSpecs(config);
    const key = `${repoKey(repo)} ${specs.map((s) => s.name).join(",")}`;
    let pending = done.get(key);
    if (pending === undefined) {
      pending = createMissing(octokit, repo, specs);
      done.set(key, pending);
      pending.catch(() => done.delete(key));
    }
    return pending;
  };
}

async function createMissing(octokit: AppOctokit, repo: RepoRef, specs: readonly LabelSpec[]): Promise<number> {
  const existing = await octokit.paginate(octokit.rest.issues.listLabelsForRepo, { ...repo, per_page: 100 });
  const have = new Set(existing.map((l) => l.name.toLowerCase()));
  let created = 0;
  for (const spec of specs) {
    if (have.has(spec.name.toLowerCase())) continue;
    try {
      await octokit.rest.issues.createLabel({ ...repo, ...spec });
      created++;
    } catch (error) {
      // 422 already_exists: created meanwhile (another replica, or GitHub auto-creating on add).
      if (statusOf(error) !== 422) throw error;
    }
  }
  return created;
}
