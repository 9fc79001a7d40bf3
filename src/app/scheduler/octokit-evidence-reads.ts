import type { Octokit } from "@octokit/rest";
import { isItemBranch } from "../../core/agents/item-branch.js";
import type { ConditionalGet } from "../../adapters/github/conditional-get.js";
import { issueOfBranch } from "./issue-of-branch.js";
import type { PullLink, SchedulerReads } from "./scheduler-github.js";

/** `Closes #12`, `fixes #3`, `Resolves #4`: GitHub's closing keywords. */
const CLOSING = /\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\s*:?\s+#(\d+)\b/gi;

/**
 * The pull request and branch listings of the Octokit scheduler adapter, reused for `maxAgeMs`:
 * they serve the evidence probe and landing by pull request, and a webhook about either
 * invalidates them at once.
 */
export function octokitEvidenceReads(octokit: Octokit, options: { readonly owner: string; readonly repo: string; readonly now: () => number; readonly maxAgeMs: number }, conditional: ConditionalGet): Pick<SchedulerReads, "linkedPulls" | "evidenceOf" | "invalidate"> {
  const { owner, repo, now } = options;
  /** When each evidence listing was last read; deleted when a webhook says it changed. */
  const listedAt = new Map<"pulls" | "branches", number>();
  let pullLinks: ReadonlyMap<number, readonly PullLink[]> = new Map();
  let branchLinks: ReadonlyMap<number, string> = new Map();
  const fresh = (what: "pulls" | "branches"): boolean => {
    const at = listedAt.get(what);
    return at !== undefined && now() - at < options.maxAgeMs;
  };

  return {
    async linkedPulls() {
      if (fresh("pulls")) return pullLinks;
      const data = await conditional("pulls", (headers) => octokit.rest.pulls.list({ owner, repo, state: "all", sort: "updated", direction: "desc", per_page: 100, headers }));
      const links = new Map<number, PullLink[]>();
      for (const pr of data) {
        const state: PullLink["state"] = pr.state === "open" ? "open" : pr.merged_at !== null ? "merged" : "closed";
        const issues = new Set<number>();
        for (const m of (pr.body ?? "").matchAll(CLOSING)) issues.add(Number(m[1]));
        const branch = issueOfBranch(pr.head.ref);
        if (branch !== undefined) issues.add(branch);
        const sameRepo = pr.head.repo?.full_name === `${owner}/${repo}`;
        for (const n of issues) links.set(n, [...(links.get(n) ?? []), { number: pr.number, state, ...(sameRepo && isItemBranch(pr.head.ref, n) ? { bosunBranch: true as const } : {}) }]);
      }
      pullLinks = links;
      listedAt.set("pulls", now());
      return links;
    },

    async evidenceOf(issue, neverClaimed) {
      // Bosun's own pull request from an earlier epoch is where a retry continues, not someone else's work.
      const open = ((await this.linkedPulls()).get(issue) ?? []).find((p) => p.state === "open" && (neverClaimed || p.bosunBranch !== true));
      if (open !== undefined) return `pull request #${open.number} is open for it`;
      // Branches left by Bosun's own earlier attempts are not someone else's work.
      if (!neverClaimed) return undefined;
      if (!fresh("branches")) {
        const refs = await conditional("branches", (headers) => octokit.rest.git.listMatchingRefs({ owner, repo, ref: "heads/", headers }));
        const links = new Map<number, string>();
        for (const r of refs) {
          const name = r.ref.replace(/^refs\/heads\//, "");
          const n = issueOfBranch(name);
          if (n !== undefined && !links.has(n)) links.set(n, name);
        }
        branchLinks = links;
        listedAt.set("branches", now());
      }
      const branch = branchLinks.get(issue);
      return branch === undefined ? undefined : `branch ${branch} exists for it`;
    },

    invalidate(what) {
      listedAt.delete(what);
    },
  };
}
