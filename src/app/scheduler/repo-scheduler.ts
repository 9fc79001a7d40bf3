import type { Octokit } from "@octokit/rest";
import { GitHubClaimStore } from "../../adapters/github/github-claim-store.js";
import { octokitClaimRefs } from "../../adapters/github/claim-refs-api.js";
import type { BosunConfig } from "../../core/config/bosun-config.js";
import type { Clock } from "../../core/engine/clock.js";
import { GuardedClaimStore } from "../../core/claims/guarded-claim-store.js";
import type { Journal } from "../../core/journal/journal-event.js";
import { parseLandCommand } from "../../core/scheduler/parse-land-command.js";
import { octokitSchedulerGitHub } from "./octokit-scheduler-github.js";
import type { TickDeps, TickReport } from "./reconcile-tick.js";
import { landItem, reconcileTick } from "./reconcile-tick.js";

export interface RepoSchedulerOptions {
  readonly owner: string;
  readonly repo: string;
  readonly botLogin: string;
  readonly defaultBranch: string;
  readonly holder: string;
  readonly clock: Clock;
  readonly journal: Journal;
}

/**
 * The scheduler of one repository, as one process keeps it between ticks: its claim store and
 * GitHub caches (ETags, snapshots, claim commits) and the shadow policy's tally. Nothing in it is
 * needed for correctness: a fresh one rebuilds everything from GitHub.
 */
export class RepoScheduler {
  private readonly store: GitHubClaimStore;
  private guarded: GuardedClaimStore;
  private guardedFor: BosunConfig | undefined;
  private readonly github;
  readonly shadow = { ticks: 0, differing: 0 };

  constructor(
    octokit: Octokit,
    private readonly options: RepoSchedulerOptions,
  ) {
    this.store = new GitHubClaimStore({ refs: octokitClaimRefs(octokit, options.owner, options.repo) });
    this.guarded = new GuardedClaimStore(this.store, this.store);
    this.github = octokitSchedulerGitHub(octokit, options);
  }

  private deps(config: BosunConfig): TickDeps {
    if (this.guardedFor !== config) {
      // A new configuration may declare other namespaces; the denial tally carries over.
      const denials = this.guarded.denials;
      this.guarded = new GuardedClaimStore(this.store, this.store, config.claims.namespaces);
      for (const [reason, n] of denials) this.guarded.denials.set(reason, n);
      this.guardedFor = config;
    }
    return {
      github: this.github,
      store: this.store,
      claims: this.guarded,
      config,
      clock: this.options.clock,
      journal: this.options.journal,
      holder: this.options.holder,
      shadow: this.shadow,
    };
  }

  /** Denials by reason since this process started (similar, held, evidence, not-ready). */
  get denials(): ReadonlyMap<string, number> {
    return this.guarded.denials;
  }

  tick(config: BosunConfig): Promise<TickReport> {
    return reconcileTick(this.deps(config));
  }

  /**
   * `/bosun land <ok|retry|refuse|human> <reason>` from someone with write access: lands the item's
   * live claim at its current epoch. Returns what happened, for the log.
   */
  async landByCommand(config: BosunConfig, issue: number, body: string, canWrite: () => Promise<boolean>): Promise<string> {
    const command = parseLandCommand(body);
    if (command === undefined) return "not a land command";
    if (!(await canWrite())) return "ignored: the author has no write access";
    const deps = this.deps(config);
    const queued = (await this.github.listQueued(config.labels.queued)).find((i) => i.number === issue);
    if (queued === undefined) return `ignored: #${issue} is not queued`;
    const snap = await this.github.snapshot(queued);
    if (!snap.ok) return `ignored: ${snap.reason}`;
    this.store.bind(snap.snapshot.brief.claim_key, `${config.claims.ref_prefix}${issue}`);
    const token = await this.store.adopt(snap.snapshot.brief.claim_key);
    if (token === undefined) return `ignored: nothing is in flight on #${issue}`;
    const landed = await landItem(deps, issue, queued, token, command.stop);
    return landed === undefined ? "refused: the claim moved (stale epoch)" : `landed #${issue}: ${landed.disposition}`;
  }
}
