import { isDeployer } from "../../../src/core/verify/untrusted-deployment.js";
import type { DeployStatusReporter } from "../../../src/ports/deploy-status-reporter.js";
import { DEFAULT_LABELS } from "../../../src/core/config/labels.js";
import type { ItemLander, MergedPull } from "../../../src/ports/item-lander.js";
import { NO_BASE_REASON } from "../../../src/ports/item-lander.js";

/** The repository the fake answers for: deployments (newest first), ranges and pulls per commit. */
export interface MemoryDeployRepo {
  /** `creator` defaults to `github-actions[bot]`; the status is taken as posted by the same account. */
  readonly deployments?: readonly { readonly id: number; readonly sha: string; readonly environment: string; readonly state: string; readonly creator?: string }[];
  /** `"base...head"` → the commits in it; a missing range answers just `[head]`. */
  readonly ranges?: Readonly<Record<string, readonly string[]>>;
  /** commit SHA → the merged pull requests containing it. */
  readonly pullsByCommit?: Readonly<Record<string, readonly MergedPull[]>>;
}

/** An in-memory verify GitHub that records every effect as a readable string, in order. */
export interface MemoryDeployGitHub extends DeployStatusReporter, ItemLander {
  readonly effects: string[];
  /** Full comment bodies by issue, for assertions on evidence and redaction. */
  readonly comments: Map<number, string[]>;
  readonly labels: Map<number, Set<string>>;
  readonly closed: Set<number>;
}

/** Creates the fake; reads are answered from `repo`, writes are recorded. */
export function createMemoryDeployGitHub(repo: MemoryDeployRepo = {}): MemoryDeployGitHub {
  const effects: string[] = [];
  const comments = new Map<number, string[]>();
  const labels = new Map<number, Set<string>>();
  const closed = new Set<number>();
  const comment = (issue: number, body: string): void => {
    comments.set(issue, [...(comments.get(issue) ?? []), body]);
    effects.push(`comment #${issue}`);
  };
  const label = (issue: number, name: string): void => {
    labels.set(issue, new Set([...(labels.get(issue) ?? []), name]));
    effects.push(`label #${issue} ${name}`);
  };
  return {
    effects,
    comments,
    labels,
    closed,
    async createDeploymentStatus(input) {
      effects.push(`deployment-status ${input.deploymentId} ${input.state}: ${input.description}`);
    },
    async createCommitStatus(input) {
      effects.push(`commit-status ${input.sha} ${input.context} ${input.state}: ${input.description}`);
    },
    async previousDeployedSha(environment, beforeDeploymentId, deployers) {
      const found = (repo.deployments ?? []).find(
        (d) => d.environment === environment && (d.state === "success" || d.state === "inactive") && (beforeDeploymentId === undefined || d.id < beforeDeploymentId) && isDeployer(d.creator ?? "github-actions[bot]", { deployers }),
      );
      return found?.sha;
    },
    async mergedPullsInRange(base, head) {
      effects.push(`range ${base ?? "(none)"}...${head}`);
      const shas = base === undefined ? [head] : (repo.ranges?.[`${base}...${head}`] ?? [head]);
      const pulls = new Map<number, MergedPull>();
      for (const sha of shas) for (const pr of repo.pullsByCommit?.[sha] ?? []) if (!pulls.has(pr.number)) pulls.set(pr.number, pr);
      return base === undefined
        ? { pulls: [...pulls.values()], unexamined: { commits: undefined, reason: NO_BASE_REASON } }
        : { pulls: [...pulls.values()] };
    },
    async landItem(issue, body) {
      comment(issue, body);
      label(issue, DEFAULT_LABELS.done);
      closed.add(issue);
      effects.push(`close #${issue}`);
    },
    async markNeedsHuman(issue, body) {
      comment(issue, body);
      label(issue, DEFAULT_LABELS.needsHuman);
    },
  };
}
