import type { Disposition } from "../../core/stop/stop.js";
import type { Octokit } from "@octokit/rest";
import { GitHubClaimStore } from "../../adapters/github/github-claim-store.js";
import { octokitClaimRefs } from "../../adapters/github/claim-refs-api.js";
import type { BosunConfig } from "../../core/config/bosun-config.js";
import type { Clock } from "../../core/engine/clock.js";
import { GuardedClaimStore, RECENT_MS } from "../../core/claims/guarded-claim-store.js";
import type { DenyReason } from "../../core/claims/claim-token.js";
import type { Journal } from "../../core/journal/journal-event.js";
import { parseLandCommand } from "../../core/scheduler/parse-land-command.js";
import type { BriefSnapshot } from "../../core/brief/snapshot.js";
import type { ClaimToken } from "../../core/claims/claim-token.js";
import type { Evidence, JournalEvent } from "../../core/journal/journal-event.js";
import type { RunCost } from "../../core/journal/run-cost.js";
import type { Stop } from "../../core/stop/stop.js";
import type { QueueIssue } from "./scheduler-github.js";
import { octokitSchedulerGitHub } from "./octokit-scheduler-github.js";
import type { TickDeps, TickReport } from "./reconcile-tick.js";
import { reconcileTick } from "./reconcile-tick.js";
import { landItem } from "./land-item.js";
import { observeLandings, type WatchedFlight } from "./observe-landings.js";
import type { WorkRecordTally } from "./work-cost-of.js";
import type { SnapshotCache } from "../snapshot-cache.js";

const RECENT_LANDS = 10;
const RECENT_EVENTS = 5000;

export interface RepoSchedulerOptions {
  readonly owner: string;
  readonly repo: string;
  readonly botLogin: string;
  readonly defaultBranch: string;
  readonly holder: string;
  readonly clock: Clock;
  readonly journal: Journal;
  /** A user-to-server client for `assign` to Copilot (passed on to the scheduler's GitHub). */
  readonly copilot?: Octokit;
  /** Snapshots shared with the intake of the same process. */
  readonly snapshots?: SnapshotCache;
}

/**
 * The scheduler of one repository, as one process keeps it between ticks: its claim store and
 * GitHub caches (ETags, snapshots, claim commits) and the shadow policy's tally. Nothing in it is
 * needed for correctness: a fresh one rebuilds everything from GitHub.
 */
export class RepoScheduler {
  /** One claim store per ref prefix (the configuration may move it); it caches claim commits. */
  private readonly stores = new Map<string, GitHubClaimStore>();
  /** Similarity-guard denials by reason since this process started (similar, held, evidence, not-ready). */
  readonly denials = new Map<DenyReason, number>();
  private readonly github;
  private readonly refs;
  readonly shadow = { ticks: 0, differing: 0 };
  /** What the `bosun/work` records read said (how many believed, why the others were not), for the dashboard. */
  readonly workRecords: WorkRecordTally = { read: 0, ignored: new Map() };
  /** Flights in `workflow` pools seen by the last tick, until their LAND is journalled (observeLandings). */
  private readonly watching = new Map<string, WatchedFlight>();
  /** The journal events this process wrote for the repository, newest last (bounded), for fleet metrics. */
  readonly recentEvents: JournalEvent[] = [];
  /** The latest lands this process saw, newest first, for the dashboard. */
  readonly recentLands: Array<{ issue: number; title: string; ok: boolean; disposition: Disposition; summary: string; at: number }> = [];

  constructor(
    octokit: Octokit,
    private readonly options: RepoSchedulerOptions,
  ) {
    this.refs = octokitClaimRefs(octokit, options.owner, options.repo);
    this.github = octokitSchedulerGitHub(octokit, { ...options, now: () => options.clock.now() });
  }

  private storeFor(config: BosunConfig): GitHubClaimStore {
    const prefix = config.claims.ref_prefix;
    let store = this.stores.get(prefix);
    if (store === undefined) {
      store = new GitHubClaimStore({ refs: this.refs, prefix });
      this.stores.set(prefix, store);
    }
    return store;
  }

  private deps(config: BosunConfig): TickDeps {
    const store = this.storeFor(config);
    return {
      github: this.github,
      store,
      // The guard follows the configuration's namespaces; its tally is this scheduler's.
      claims: new GuardedClaimStore(store, store, config.claims.namespaces, RECENT_MS, this.denials),
      config,
      clock: this.options.clock,
      journal: {
        append: (event) => {
          this.options.journal.append(event);
          this.recentEvents.push(event);
        },
      },
      holder: this.options.holder,
      shadow: this.shadow,
      workRecords: this.workRecords,
    };
  }


  /** A webhook said pull requests or branches changed: the next tick lists them again. */
  invalidate(what: "pulls" | "branches"): void {
    this.github.invalidate(what);
  }

  async tick(config: BosunConfig): Promise<TickReport> {
    const deps = this.deps(config);
    const report = await reconcileTick(deps);
    // Runs that landed their own claim (a work run's land job) are journalled here, from their record.
    const observed = await observeLandings(deps, this.watching, report, this.recentEvents);
    this.recentEvents.splice(0, Math.max(0, this.recentEvents.length - RECENT_EVENTS));
    const at = this.options.clock.now();
    for (const l of [...report.landed, ...observed]) this.recentLands.unshift({ issue: l.issue, title: report.inFlight.find((f) => f.issue === l.issue)?.title ?? `#${l.issue}`, ok: l.disposition === "ok", disposition: l.disposition, summary: l.summary, at });
    this.recentLands.splice(RECENT_LANDS);
    return report;
  }

  /**
   * The live claim on an issue's item, with its frozen brief: what a dispatched worker checks
   * before it acts (its epoch must still be the one holding the item).
   */
  async claimOf(config: BosunConfig, issue: number): Promise<{ issue: QueueIssue; snapshot: BriefSnapshot; token: ClaimToken | undefined } | { problem: string }> {
    const queued = (await this.github.listQueued(config.labels.queued)).find((i) => i.number === issue);
    if (queued === undefined) return { problem: `#${issue} is not queued` };
    const snap = await this.github.snapshot(queued);
    if (!snap.ok) return { problem: snap.reason };
    const store = this.storeFor(config);
    store.bind(snap.snapshot.brief.claim_key, `${config.claims.ref_prefix}${issue}`);
    return { issue: queued, snapshot: snap.snapshot, token: await store.adopt(snap.snapshot.brief.claim_key) };
  }

  /** Lands a worker's own structured result on its claim (fenced by the token's epoch). */
  land(config: BosunConfig, issue: QueueIssue, token: ClaimToken, stop: Stop, evidence?: Evidence, cost?: RunCost): ReturnType<typeof landItem> {
    return landItem(this.deps(config), issue.number, issue, token, stop, evidence, cost);
  }

  /**
   * `/bosun land <ok|retry|refuse|human> <reason>` from someone with write access: lands the item's
   * live claim at its current epoch. Returns what happened, for the log.
   */
  async landByCommand(config: BosunConfig, issue: number, body: string, canWrite: () => Promise<boolean>): Promise<string> {
    const command = parseLandCommand(body);
    if (command === undefined) return "not a land command";
    if (!(await canWrite())) return "ignored: the author has no write access";
    const found = await this.claimOf(config, issue);
    if ("problem" in found) return `ignored: ${found.problem}`;
    if (found.token === undefined) return `ignored: nothing is in flight on #${issue}`;
    const landed = await this.land(config, found.issue, found.token, command.stop);
    return landed === undefined ? "refused: the claim moved (stale epoch)" : `landed #${issue}: ${landed.disposition}`;
  }
}
