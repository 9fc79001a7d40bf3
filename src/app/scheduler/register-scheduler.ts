import { hostname } from "node:os";
import type { Octokit } from "@octokit/rest";
import type { Probot } from "probot";
import type { BosunConfig } from "../../core/config/bosun-config.js";
import type { ConfigProblem } from "../../core/config/parse-config.js";
import type { Clock } from "../../core/engine/clock.js";
import type { Journal } from "../../core/journal/journal-event.js";
import { hasWriteAccess } from "../../adapters/github/has-write-access.js";
import { labelMovesQueue } from "../../core/config/moves-queue.js";
import { coalescedTicker } from "./coalesced-ticker.js";
import type { TickReport } from "./reconcile-tick.js";
import { RepoScheduler } from "./repo-scheduler.js";
import type { SnapshotCache } from "../snapshot-cache.js";

export interface SchedulerOptions {
  /** The repository's validated configuration (last good one kept by the loader) and what is wrong with the file. */
  readonly loadConfig: (octokit: Octokit, owner: string, repo: string) => Promise<{ config: BosunConfig; problems: readonly ConfigProblem[] }>;
  readonly clock: Clock;
  /** Where journal events go (the app's structured log). */
  readonly journal: Journal;
  /** The bot's login, whose snapshot comments are trusted (e.g. `bosun[bot]`). */
  readonly botLogin: () => Promise<string>;
  /** Snapshots shared with the intake of the same process. */
  readonly snapshots?: SnapshotCache;
  /** A user-to-server client for `assign` to Copilot (BOSUN_COPILOT_TOKEN). */
  readonly copilot?: Octokit;
  /** Told about every tick's outcome, e.g. to refresh the dashboard. */
  readonly onTick?: (repo: { owner: string; repo: string; octokit: Octokit; config: BosunConfig; problems: readonly ConfigProblem[] }, report: TickReport, scheduler: RepoScheduler) => Promise<void>;
}

/** Events after which the queue may have moved: each only triggers a tick, which reads the truth. */
const TRIGGERS = [
  "issues.labeled",
  "issues.unlabeled",
  "issues.closed",
  "issues.reopened",
  "issue_comment.created",
  "workflow_run.completed",
  "pull_request.closed",
  "pull_request.opened",
] as const;

/** How soon a tick that lost every attempt to other writers looks again. */
const BUSY_RETRY_MS = 5_000;

/**
 * Wires the scheduler into the Probot app: webhooks (hints, never the truth) trigger a coalesced
 * reconcile tick of their repository; `/bosun land` comments land an item by hand.
 */
export function registerScheduler(app: Probot, options: SchedulerOptions): { tickRepo(octokit: Octokit, owner: string, repo: string, defaultBranch: string): Promise<void> } {
  const holder = `app-${hostname()}-${process.pid}`;
  const repos = new Map<string, { scheduler: RepoScheduler; ticker: ReturnType<typeof coalescedTicker>; octokit: Octokit }>();

  const forRepo = async (octokit: Octokit, owner: string, repo: string, defaultBranch: string) => {
    const key = `${owner}/${repo}`;
    let entry = repos.get(key);
    if (entry === undefined) {
      const scheduler = new RepoScheduler(octokit, { owner, repo, botLogin: await options.botLogin(), defaultBranch, holder, clock: options.clock, journal: options.journal, ...(options.snapshots === undefined ? {} : { snapshots: options.snapshots }), ...(options.copilot === undefined ? {} : { copilot: options.copilot }) });
      const state: { scheduler: RepoScheduler; octokit: Octokit; ticker: ReturnType<typeof coalescedTicker> } = {
        scheduler,
        octokit,
        ticker: coalescedTicker(
          async () => {
            const { config, problems } = await options.loadConfig(state.octokit, owner, repo);
            const report = await scheduler.tick(config);
            // Other replicas kept winning the claims' compare-and-swap: look again shortly, or this event waits for the schedule.
            if (report.busy) setTimeout(() => void state.ticker.trigger(), BUSY_RETRY_MS).unref();
            else await options.onTick?.({ owner, repo, octokit: state.octokit, config, problems }, report, scheduler);
          },
          (err) => app.log.error({ err: err instanceof Error ? err.message : String(err), repo: key }, "bosun tick failed; the next tick retries"),
        ),
      };
      entry = state;
      repos.set(key, entry);
    }
    // Installation tokens expire: always keep the newest client.
    entry.octokit = octokit;
    return entry;
  };

  app.on([...TRIGGERS], async (context) => {
    const payload = context.payload as { action?: string; label?: { name?: string }; repository?: { name: string; owner: { login: string }; default_branch: string }; comment?: { body?: string; user?: { login: string } }; issue?: { number: number } };
    const repository = payload.repository;
    if (repository === undefined) return;
    // Only events that can move the queue start a tick: anyone can add a label or comment, and
    // they must not be able to make the bot write by doing so.
    if (context.name === "issue_comment" && !/^\s*\/bosun\b/.test(payload.comment?.body ?? "")) return;
    const octokit = context.octokit as unknown as Octokit;
    const owner = repository.owner.login;
    const relabelled = context.name === "issues" && (payload.action === "labeled" || payload.action === "unlabeled");
    // The label names are the repository's own (config.labels), so the configuration decides; the loader caches it.
    const needsConfig = relabelled || context.name === "issue_comment";
    const config = needsConfig ? (await options.loadConfig(octokit, owner, repository.name)).config : undefined;
    if (relabelled && config !== undefined && !labelMovesQueue(payload.label?.name ?? "", config)) return;
    const entry = await forRepo(octokit, owner, repository.name, repository.default_branch);
    // Pull requests changed: the evidence probe and landing by pull request must not use the cached listing.
    if (context.name === "pull_request") entry.scheduler.invalidate("pulls");
    if (context.name === "issue_comment" && config !== undefined && payload.comment?.body !== undefined && payload.issue !== undefined && payload.comment.user !== undefined) {
      const author = payload.comment.user.login;
      const outcome = await entry.scheduler.landByCommand(config, payload.issue.number, payload.comment.body, () => hasWriteAccess(octokit, owner, repository.name, author));
      if (outcome !== "not a land command") app.log.info({ repo: `${owner}/${repository.name}`, issue: payload.issue.number, author }, `bosun land: ${outcome}`);
    }
    await entry.ticker.trigger();
  });

  // A branch appeared or went: the evidence probe lists branches again (no tick needed for that).
  app.on(["create", "delete"], async (context) => {
    const payload = context.payload as { ref_type?: string; repository?: { name: string; owner: { login: string } } };
    if (payload.ref_type !== "branch" || payload.repository === undefined) return;
    repos.get(`${payload.repository.owner.login}/${payload.repository.name}`)?.scheduler.invalidate("branches");
  });

  return {
    tickRepo: async (octokit, owner, repo, defaultBranch) => (await forRepo(octokit, owner, repo, defaultBranch)).ticker.trigger(),
  };
}
