import type { Octokit } from "@octokit/rest";
import { isItemBranch } from "../../../core/agents/item-branch.js";
import { parseGateCheckMarker } from "../../../core/journal/gate-check-marker.js";
import { normalizeLogin } from "../../../core/separation/identity.js";
import { statusOf } from "../status-of.js";
import { firstAttemptOf } from "./first-attempt.js";
import type { FirstAttempts } from "./first-attempt.js";
import { GATE_CHECK_NAME } from "./gate-check-name.js";
import { issueOfBranch } from "./issue-of-branch.js";
import type { OctokitTickOptions } from "./octokit-tick-options.js";
import type { OctokitTickShared } from "./octokit-tick-shared.js";
import type { PullLink, RunView, TickReads } from "./tick-github.js";

/** `Closes #12`, `fixes #3`, `Resolves #4`: GitHub's closing keywords. */
const CLOSING = /\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\s*:?\s+#(\d+)\b/gi;

/** How long a gate verdict read is reused before it is asked again (a re-run may change it), and "no verdict yet". */
const GATE_MAX_AGE_MS = 10 * 60_000;
const GATE_PENDING_MAX_AGE_MS = 30_000;

/** The tick's reads of runs, pull requests, branches and gate verdicts, over Octokit (`octokit-tick-github.ts` composes them). */
export type OctokitPullReads = Pick<TickReads, "listRuns" | "knownRunId" | "linkedPulls" | "pull" | "gateVerdict" | "evidence" | "invalidate">;

/**
 * Runs, pull requests, branches and gate verdicts. The listings and verdicts they keep, and when
 * each was read, live here with `invalidate`, which drops them; the ETags and the runs this
 * process dispatched are in `shared`.
 */
export function octokitPullReads(octokit: Octokit, options: OctokitTickOptions, shared: OctokitTickShared): OctokitPullReads {
  const { owner, repo, now } = options;
  const { conditional, bot, runIds } = shared;
  const firstAttempts: FirstAttempts = new Map();
  const listedAt = new Map<"pulls" | "branches", number>();
  const maxAgeMs = options.evidenceMaxAgeMs ?? 300_000;
  let pullLinks: ReadonlyMap<number, readonly PullLink[]> = new Map();
  let branchLinks: ReadonlyMap<number, string> = new Map();
  let gateEpoch = 0;
  const gates = new Map<string, { epoch: number; at: number; verdict: Awaited<ReturnType<TickReads["gateVerdict"]>> }>();
  const fresh = (what: "pulls" | "branches"): boolean => {
    const at = listedAt.get(what);
    return at !== undefined && now() - at < maxAgeMs;
  };
  const linkOf = (pr: { number: number; state: string; merged_at: string | null; merge_commit_sha?: string | null; head: { ref: string; sha: string; repo: { full_name: string } | null }; user: { login: string } | null }, n: number): PullLink => {
    const merged = pr.merged_at !== null;
    return {
      number: pr.number,
      state: pr.state === "open" ? "open" : merged ? "merged" : "closed",
      head: pr.head.sha,
      ...(merged && typeof pr.merge_commit_sha === "string" ? { mergeSha: pr.merge_commit_sha } : {}),
      bosunBranch: pr.head.repo?.full_name === `${owner}/${repo}` && isItemBranch(pr.head.ref, n),
      author: pr.user?.login ?? "ghost",
    };
  };

  return {
    async listRuns(enough) {
      // A long run can be pushed off the first page by the short ones after it: read on while a
      // run in flight is still missing (each page a conditional request).
      const out: RunView[] = [];
      for (let page = 1; page <= 10; page++) {
        const data = await conditional(`runs:${page}`, (headers) => octokit.rest.actions.listWorkflowRunsForRepo({ owner, repo, event: "workflow_dispatch", per_page: 100, page, headers }));
        for (const r of data.workflow_runs) {
          const run = await firstAttemptOf(octokit, { owner, repo }, r, firstAttempts);
          if (run !== undefined) out.push(run);
        }
        if (data.workflow_runs.length < 100 || enough(out)) break;
      }
      return out;
    },

    knownRunId: (n, epoch) => runIds.get(`${n}:${epoch}`),

    async linkedPulls() {
      if (fresh("pulls")) return pullLinks;
      const data = await conditional("pulls", (headers) => octokit.rest.pulls.list({ owner, repo, state: "all", sort: "updated", direction: "desc", per_page: 100, headers }));
      const links = new Map<number, PullLink[]>();
      for (const pr of data) {
        const issues = new Set<number>();
        for (const m of (pr.body ?? "").matchAll(CLOSING)) issues.add(Number(m[1]));
        const branch = issueOfBranch(pr.head.ref);
        if (branch !== undefined) issues.add(branch);
        for (const n of issues) links.set(n, [...(links.get(n) ?? []), linkOf(pr, n)]);
      }
      pullLinks = links;
      listedAt.set("pulls", now());
      return links;
    },

    async pull(number) {
      try {
        const data = await conditional(`pull:${number}`, (headers) => octokit.rest.pulls.get({ owner, repo, pull_number: number, headers }));
        return linkOf(data, issueOfBranch(data.head.ref) ?? 0);
      } catch (err) {
        if (statusOf(err) === 404 || statusOf(err) === 410) return undefined;
        throw err;
      }
    },

    async gateVerdict(sha) {
      const known = gates.get(sha);
      // A check_run webhook drops what is known (gateEpoch). Without one (webhooks get lost) a
      // verdict is read again after a while, and "none yet" sooner: each read is conditional, so an
      // unchanged answer is a 304, free against the rate limit.
      const maxAge = known?.verdict === undefined ? GATE_PENDING_MAX_AGE_MS : GATE_MAX_AGE_MS;
      if (known !== undefined && known.epoch === gateEpoch && now() - known.at < maxAge) return known.verdict;
      const data = await conditional(`gate:${sha}`, (headers) => octokit.rest.checks.listForRef({ owner, repo, ref: sha, check_name: GATE_CHECK_NAME, filter: "latest", per_page: 100, headers }));
      let verdict: Awaited<ReturnType<TickReads["gateVerdict"]>>;
      let newest = -1;
      for (const run of data.check_runs) {
        // Only the Bosun App's own verdict: `github-actions` is every workflow, including those a pull request edits.
        if (normalizeLogin(run.app?.slug ?? "") !== bot || run.status !== "completed" || run.head_sha !== sha || run.id < newest) continue;
        const parsed = parseGateCheckMarker(run.output.summary);
        if (!parsed.ok || parsed.marker.sha !== sha) continue;
        newest = run.id;
        const m = parsed.marker;
        verdict = { verdict: m.verdict, sha, reason: m.reason ?? run.output.title ?? m.verdict, ...(m.verdict === "fail" ? { failure: m.failure ?? "refuse" } : {}) };
      }
      gates.set(sha, { epoch: gateEpoch, at: now(), verdict });
      return verdict;
    },

    async evidence(n, neverClaimed) {
      // Bosun's own pull request from an earlier epoch is where a retry continues, not someone else's work.
      const open = ((await this.linkedPulls()).get(n) ?? []).find((p) => p.state === "open" && (neverClaimed || !p.bosunBranch));
      if (open !== undefined) return `pull request #${open.number} is open for it`;
      if (!neverClaimed) return null;
      if (!fresh("branches")) {
        const refs = await conditional("branches", (headers) => octokit.rest.git.listMatchingRefs({ owner, repo, ref: "heads/", headers }));
        const links = new Map<number, string>();
        for (const r of refs) {
          const name = r.ref.replace(/^refs\/heads\//, "");
          const m = issueOfBranch(name);
          if (m !== undefined && !links.has(m)) links.set(m, name);
        }
        branchLinks = links;
        listedAt.set("branches", now());
      }
      const branch = branchLinks.get(n);
      return branch === undefined ? null : `branch ${branch} exists for it`;
    },

    invalidate(what) {
      if (what === "gates") gateEpoch++;
      else listedAt.delete(what);
    },
  };
}
