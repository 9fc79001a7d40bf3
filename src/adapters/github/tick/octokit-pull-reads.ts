import type { Octokit } from "@octokit/rest";
import { isItemBranch } from "../../../core/agents/item-branch.js";
import { statusOf } from "../status-of.js";
import { timeOf } from "../time-of.js";
import { firstAttemptOf } from "./first-attempt.js";
import { gateOfCheckRun, isBosunsRun } from "./gate-of-check-run.js";
import type { FirstAttempts } from "./first-attempt.js";
import { GATE_CHECK_NAME } from "./gate-check-name.js";
import { issueOfBranch } from "./issue-of-branch.js";
import { issuesOfPull } from "./issues-of-pull.js";
import type { OctokitTickOptions } from "./octokit-tick-options.js";
import type { OctokitTickShared } from "./octokit-tick-shared.js";
import type { HeardPull, PullLink, RunView, TickReads } from "./tick-github.js";

/** How long a gate verdict read is reused before it is asked again (a re-run may change it), and "no verdict yet". */
const GATE_MAX_AGE_MS = 10 * 60_000;
const GATE_PENDING_MAX_AGE_MS = 30_000;
const GATES_KEPT = 2_000;

/** Pull request `number` as the listing shows it (under any issue it links). */
const shownPull = (links: ReadonlyMap<number, readonly PullLink[]>, number: number): PullLink | undefined => [...links.values()].flat().find((p) => p.number === number);

/** Whether the listing already shows this view of the pull request (its state and head). */
function samePull(links: ReadonlyMap<number, readonly PullLink[]>, pr: HeardPull): boolean {
  const shown = shownPull(links, pr.number);
  const state = pr.state === "open" ? "open" : pr.merged_at !== null ? "merged" : "closed";
  return shown !== undefined && shown.state === state && shown.head === pr.head.sha;
}

/** The tick's reads of runs, pull requests, branches and gate verdicts, over Octokit (`octokit-tick-github.ts` composes them). */
export type OctokitPullReads = Pick<TickReads, "listRuns" | "knownRunId" | "linkedPulls" | "pull" | "gateVerdict" | "heardGate" | "heardPull" | "knownHead" | "evidence" | "invalidate">;

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
  type Known = { id: number; at: number; verdict: Awaited<ReturnType<TickReads["gateVerdict"]>> };
  const gates = new Map<string, Known>();
  /** When this process first met a head it had no verdict for (while it waits for the webhook). */
  const firstSeen = new Map<string, number>();
  const heardWaitMs = options.gateHeardWaitMs ?? 0;
  const remember = (sha: string, known: Known): void => {
    gates.set(sha, known);
    firstSeen.delete(sha);
    // Bounded: heads long out of review are forgotten (a read answers again if ever asked).
    if (gates.size > GATES_KEPT) for (const [old] of [...gates].slice(0, gates.size - GATES_KEPT)) gates.delete(old);
    if (firstSeen.size > GATES_KEPT) for (const [old] of [...firstSeen].slice(0, firstSeen.size - GATES_KEPT)) firstSeen.delete(old);
  };
  const fresh = (what: "pulls" | "branches"): boolean => {
    const at = listedAt.get(what);
    return at !== undefined && now() - at < maxAgeMs;
  };
  /** n → when the listing (or a webhook since) last showed pull request n (ISO 8601, so ordered as text). */
  const pullUpdated = new Map<number, string>();
  const linkOf = (pr: HeardPull, n: number): PullLink => {
    const merged = pr.merged_at !== null;
    const createdAt = timeOf(pr.created_at);
    return {
      number: pr.number,
      state: pr.state === "open" ? "open" : merged ? "merged" : "closed",
      head: pr.head.sha,
      ...(merged && typeof pr.merge_commit_sha === "string" ? { mergeSha: pr.merge_commit_sha } : {}),
      bosunBranch: pr.head.repo?.full_name === `${owner}/${repo}` && isItemBranch(pr.head.ref, n),
      author: pr.user?.login ?? "ghost",
      ...(createdAt === undefined ? {} : { createdAt }),
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
      pullUpdated.clear();
      for (const pr of data) {
        pullUpdated.set(pr.number, pr.updated_at);
        for (const n of issuesOfPull(pr)) links.set(n, [...(links.get(n) ?? []), linkOf(pr, n)]);
      }
      pullLinks = links;
      listedAt.set("pulls", now());
      return links;
    },

    heardPull(pr) {
      // Nothing listed to mend (or a listing too old to trust): the next tick lists.
      if (!fresh("pulls")) return;
      // Deliveries come in any order: an older view of the pull request never replaces a newer one.
      const known = pullUpdated.get(pr.number);
      if (known !== undefined && pr.updated_at < known) return;
      // Two views within one second (GitHub's timestamps are to the second) cannot be ordered: list.
      if (known !== undefined && pr.updated_at === known && !samePull(pullLinks, pr)) {
        listedAt.delete("pulls");
        return;
      }
      pullUpdated.set(pr.number, pr.updated_at);
      const links = new Map<number, PullLink[]>();
      for (const [n, list] of pullLinks) {
        const others = list.filter((p) => p.number !== pr.number);
        if (others.length > 0) links.set(n, others);
      }
      for (const n of issuesOfPull(pr)) links.set(n, [...(links.get(n) ?? []), linkOf(pr, n)]);
      pullLinks = links;
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
      // A check_run webhook puts a verdict here (`heardGate`) or drops it. Without one (webhooks get
      // lost, or another replica heard it) a verdict is read again after a while, and "none yet"
      // sooner: each read is conditional, so an unchanged answer is a 304.
      const maxAge = known?.verdict === undefined ? GATE_PENDING_MAX_AGE_MS : GATE_MAX_AGE_MS;
      if (known !== undefined && now() - known.at < maxAge) return known.verdict;
      // A process that hears the gate's webhooks waits for them on a head it has just met: the
      // verdict comes to it (or to the replica that writes the item's end) without a read.
      if (known === undefined && heardWaitMs > 0) {
        const seen = firstSeen.get(sha) ?? now();
        firstSeen.set(sha, seen);
        if (now() - seen < heardWaitMs) return undefined;
      }
      const data = await conditional(`gate:${sha}`, (headers) => octokit.rest.checks.listForRef({ owner, repo, ref: sha, check_name: GATE_CHECK_NAME, filter: "latest", per_page: 100, headers }));
      let verdict: Awaited<ReturnType<TickReads["gateVerdict"]>>;
      let newest = -1;
      for (const run of data.check_runs) {
        const of = run.id < newest ? undefined : gateOfCheckRun(run, sha, bot);
        if (of === undefined) continue;
        newest = run.id;
        verdict = of;
      }
      remember(sha, { id: newest, at: now(), verdict });
      return verdict;
    },

    heardGate(run) {
      // Only the App's own runs move anything: anyone with write access can post a check run of
      // that name, and its webhook must not cost a read, let alone set a verdict.
      if (!isBosunsRun(run, bot)) return false;
      const known = gates.get(run.head_sha);
      // Deliveries come in any order: an older run's end never overwrites a newer run's verdict,
      // and an older view of a run (created, delivered after its completion) changes nothing.
      if (known !== undefined && (run.id < known.id || (run.id === known.id && run.status !== "completed"))) return false;
      // A run started (a re-run), or one whose text says nothing: no verdict on this head for now,
      // read after the pending age if its end is not heard.
      remember(run.head_sha, { id: run.id, at: now(), verdict: gateOfCheckRun(run, run.head_sha, bot) });
      return true;
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

    knownHead(number) {
      // Only from a listing the ticks would still use: an older one may show a head since pushed over.
      if (!fresh("pulls")) return undefined;
      const sha = shownPull(pullLinks, number)?.head;
      const updatedAt = pullUpdated.get(number);
      return sha === undefined || updatedAt === undefined ? undefined : { sha, updatedAt };
    },

    invalidate(what) {
      listedAt.delete(what);
    },
  };
}
