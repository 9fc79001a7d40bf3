import type { Octokit } from "@octokit/rest";
import { createConditionalGet } from "../../adapters/github/conditional-get.js";
import { GATE_CHECK_NAME } from "../../action/gate/publish-gate-report.js";
import type { JournalEvent } from "../../core/journal/journal-event.js";
import { parseGateCheckMarker } from "../../core/journal/gate-check-marker.js";
import { taskClassOf } from "../../core/metrics/task-class.js";
import { issueOfBranch } from "../scheduler/octokit-scheduler-github.js";
import type { SnapshotCache } from "../snapshot-cache.js";

/** An item as the App's own record knows it: its issue and the frozen brief it approved. */
export interface GatedItem {
  readonly issue: number;
  readonly briefHash: string;
  readonly claimKey: string;
}

/** GATE events read back from `bosun/gate` check runs, and how many check runs were left out, by why. */
export interface GateCheckEvents {
  readonly events: readonly Extract<JournalEvent, { event: "GATE" }>[];
  readonly ignored: Readonly<Record<string, number>>;
}

/** The check runs one read looks at at most (pull requests × runs), so a busy repository stays bounded. */
const MAX_PULLS_PER_ITEM = 5;
const CLOSING = /\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\s*:?\s+#(\d+)\b/gi;

/**
 * Reads the gate's verdicts where they live on GitHub — the `bosun/gate` check runs on the head
 * commits of each item's pull requests — and turns them into GATE events for the fleet metrics
 * (DESIGN.md, "Journal"). A check run counts only when (1) it was posted by a trusted app (the
 * Bosun App itself, with whose token the trusted gate workflow posts; never `github-actions`, which
 * any workflow a pull request edits can post as),
 * (2) its marker names the commit it is posted on, and (3) the marker's brief hash is the hash
 * of the snapshot the App approved for that item — so a PR that says `Closes #n` cannot lend its
 * verdict to #n, and the class comes from the App's snapshot, never from the check run. Listings
 * are conditional (an unchanged answer is a 304, which costs no rate limit).
 */
export function createGateCheckReader() {
  const conditional = createConditionalGet();

  return async function readGateChecks(octokit: Octokit, repo: { owner: string; repo: string }, items: readonly GatedItem[], trustedApps: readonly string[]): Promise<GateCheckEvents> {
    const ignored: Record<string, number> = {};
    const skip = (why: string) => (ignored[why] = (ignored[why] ?? 0) + 1);
    const events: Array<Extract<JournalEvent, { event: "GATE" }>> = [];
    if (items.length === 0) return { events, ignored };
    const pulls = await conditional(`pulls:${repo.owner}/${repo.repo}`, (headers) => octokit.rest.pulls.list({ ...repo, state: "all", sort: "updated", direction: "desc", per_page: 100, headers }));
    const heads = new Map<number, string[]>();
    for (const pr of pulls) {
      const linked = new Set<number>([...(pr.body ?? "").matchAll(CLOSING)].map((m) => Number(m[1])));
      const branch = issueOfBranch(pr.head.ref);
      if (branch !== undefined) linked.add(branch);
      for (const n of linked) heads.set(n, [...(heads.get(n) ?? []), pr.head.sha]);
    }
    const trusted = new Set(trustedApps.map((a) => a.toLowerCase()));
    for (const item of items) {
      for (const sha of new Set((heads.get(item.issue) ?? []).slice(0, MAX_PULLS_PER_ITEM))) {
        const data = await conditional(`checks:${repo.owner}/${repo.repo}:${sha}`, (headers) => octokit.rest.checks.listForRef({ ...repo, ref: sha, check_name: GATE_CHECK_NAME, filter: "all", per_page: 100, headers }));
        for (const run of data.check_runs) {
          if (run.status !== "completed" || run.completed_at === null) continue;
          if (run.app === null || !trusted.has((run.app.slug ?? "").toLowerCase())) {
            skip("posted by an app that is not trusted");
            continue;
          }
          const parsed = parseGateCheckMarker(run.output.summary);
          if (!parsed.ok) {
            skip("no valid bosun:gate marker");
            continue;
          }
          const { marker } = parsed;
          if (marker.sha !== run.head_sha) {
            skip("marker names another commit");
            continue;
          }
          // A PR linked to one item but judged against another item's brief is not this item's gate.
          if (marker.brief !== item.briefHash) continue;
          events.push({ v: 1, t: run.completed_at, event: "GATE", item: String(item.issue), class: taskClassOf({ claim_key: item.claimKey }), sha: run.head_sha, verdict: marker.verdict, by: "check-run" });
        }
      }
    }
    return { events, ignored };
  };
}

/**
 * The apps whose `bosun/gate` check runs the App believes: itself only. The trusted gate workflow
 * posts with this App's token; `github-actions` is also every workflow a pull request can edit
 * (a same-repository PR's workflow may grant its GITHUB_TOKEN `checks: write`).
 */
export function trustedGateApps(botLogin: string): string[] {
  return [botLogin.replace(/\[bot\]$/, "")];
}

/** How many of the most recently landed items the dashboard reads gate verdicts for. */
const MAX_ITEMS = 20;

/** What the dashboard gets: the GATE events read, or why none could be read this time. */
export type GateVerdicts = (GateCheckEvents & { readonly items: number }) | { readonly failed: string };

/**
 * The reader the App's dashboard calls after a tick: the items are the latest this process landed
 * (from its own LAND events) whose approved snapshot it knows; a failed read is reported on the
 * dashboard, never taken for "no verdicts".
 */
export function gateVerdictReader(snapshots: SnapshotCache, trustedApps: () => Promise<readonly string[]>, onError: (error: unknown) => void) {
  const read = createGateCheckReader();
  return async (octokit: Octokit, repo: { owner: string; repo: string }, events: readonly JournalEvent[]): Promise<GateVerdicts> => {
    const landed: number[] = [];
    for (let i = events.length - 1; i >= 0 && landed.length < MAX_ITEMS; i--) {
      const e = events[i];
      const n = e?.event === "LAND" ? Number(e.item) : Number.NaN;
      if (Number.isInteger(n) && n > 0 && !landed.includes(n)) landed.push(n);
    }
    const items: GatedItem[] = [];
    for (const issue of landed) {
      const snap = snapshots.last(`${repo.owner}/${repo.repo}`, issue);
      if (snap?.ok === true) items.push({ issue, briefHash: snap.snapshot.hash, claimKey: snap.snapshot.brief.claim_key });
    }
    try {
      return { ...(await read(octokit, repo, items, await trustedApps())), items: items.length };
    } catch (error) {
      onError(error);
      return { failed: error instanceof Error ? error.message : String(error) };
    }
  };
}
