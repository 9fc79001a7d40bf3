import { hostname } from "node:os";
import type { Octokit } from "@octokit/rest";
import type { Probot } from "probot";
import { RepoTicker } from "../../adapters/github/tick/repo-ticker.js";
import type { TickReport } from "../../adapters/github/tick/run-tick.js";
import type { BosunConfig } from "../../core/config/bosun-config.js";
import type { ConfigProblem } from "../../core/config/parse-config.js";
import type { Clock } from "../../core/engine/clock.js";
import type { Journal } from "../../core/journal/journal-event.js";
import type { TickView } from "../../core/scheduler/tick-plan.js";
import { APP_DEFAULTS } from "../app-defaults.js";
import { coalescedTicker } from "./coalesced-ticker.js";
import { HEARD_ISSUE_EVENTS, HEARD_WORK_EVENTS, hearDelivery, type HeardPayload } from "./hear-delivery.js";

export interface SchedulerOptions {
  /** The repository's validated configuration (last good one kept by the loader) and what is wrong with the file. */
  readonly loadConfig: (octokit: Octokit, owner: string, repo: string) => Promise<{ config: BosunConfig; problems: readonly ConfigProblem[] }>;
  readonly clock: Clock;
  /** Where journal events go (the app's structured log). */
  readonly journal: Journal;
  /** The bot's login (`bosun[bot]`): only what it wrote is believed. */
  readonly botLogin: () => Promise<string>;
  /** A user-to-server client for `assign` to Copilot (BOSUN_COPILOT_TOKEN). */
  readonly copilot?: Octokit;
  /** The dashboard's busy/idle line, before the tick writes anything else (decided from the same facts). */
  readonly beforeApply?: (repo: RepoContext, view: TickView) => Promise<void>;
  /** Told about every tick's outcome, e.g. to refresh the dashboard. */
  readonly onTick?: (repo: RepoContext, report: TickReport, ticker: RepoTicker) => Promise<void>;
  /** Once per repository and process, after its first tick (off the first approval's path): create Bosun's labels. */
  readonly firstTick?: (repo: RepoContext) => Promise<void>;
  /**
   * The longest random wait before a tick a webhook set off (default `APP_DEFAULTS.heardJitterMs`):
   * replicas that heard the same event tick one after another rather than all write the same batch.
   */
  readonly heardJitterMs?: number;
  /** That wait and its draw in [0, 1), replaceable for tests (default: a timer, `Math.random`). */
  readonly sleep?: (ms: number) => Promise<void>;
  readonly random?: () => number;
  /** This process's name in the claims it writes (default `app-<host>-<pid>`; tests running replicas in one process name each). */
  readonly holder?: string;
}

export interface RepoContext {
  readonly owner: string;
  readonly repo: string;
  readonly octokit: Octokit;
  readonly config: BosunConfig;
  readonly problems: readonly ConfigProblem[];
}

/** How soon (at the least) a tick that lost its batch to another writer looks again. */
const BUSY_RETRY_MS = 5_000;

/**
 * Wires the one tick into the Probot app. Webhooks are hints (but for two facts a delivery carries,
 * signed with the webhook secret: a pull request's state and the App's own gate verdict): they trigger a
 * coalesced tick of their repository (a burst of deliveries costs two ticks), and say which
 * issue's approval to read again or which listing to refresh. The tick reads the truth, takes in
 * approvals, lands, reviews and grants — the intake is part of it, so there is one path and one
 * compare-and-swap for every change. `/bosun land` comments land an item by hand.
 */
export function registerScheduler(app: Probot, options: SchedulerOptions): { tickRepo(octokit: Octokit, owner: string, repo: string, defaultBranch: string, unlessReadWithinMs?: number): Promise<void>; ticker(octokit: Octokit, owner: string, repo: string, defaultBranch: string): Promise<RepoTicker> } {
  const holder = options.holder ?? `app-${hostname()}-${process.pid}`;
  const repos = new Map<string, { ticker: RepoTicker; trigger: ReturnType<typeof coalescedTicker>; octokit: Octokit; ticked: boolean; readAt: number }>();

  const forRepo = async (octokit: Octokit, owner: string, repo: string, defaultBranch: string) => {
    const key = `${owner}/${repo}`.toLowerCase();
    let entry = repos.get(key);
    if (entry === undefined) {
      // One attempt per tick: a tick that lost its batch to another replica looks again shortly (below).
      const ticker = new RepoTicker(octokit, { owner, repo, botLogin: await options.botLogin(), defaultBranch, holder, clock: options.clock, journal: options.journal, attempts: 1, heardJitterMs: options.heardJitterMs ?? APP_DEFAULTS.heardJitterMs, gateHeardWaitMs: APP_DEFAULTS.gateHeardWaitMs, ...(options.sleep === undefined ? {} : { sleep: options.sleep }), ...(options.random === undefined ? {} : { random: options.random }), ...(options.copilot === undefined ? {} : { copilot: options.copilot }) });
      const state: { ticker: RepoTicker; octokit: Octokit; trigger: ReturnType<typeof coalescedTicker>; ticked: boolean; readAt: number } = {
        ticker,
        octokit,
        ticked: false,
        readAt: Number.NEGATIVE_INFINITY,
        trigger: coalescedTicker(
          async (heard, gathering) => {
            let startedAt = 0;
            const read = (): void => {
              // Real time, as the sweep's timer keeps it (the scheduler's clock may run faster in a bench).
              startedAt = performance.now();
              gathering();
            };
            const { config, problems } = await options.loadConfig(state.octokit, owner, repo);
            const context = { owner, repo, octokit: state.octokit, config, problems };
            const report = await ticker.tick(config, options.beforeApply === undefined ? undefined : (view) => options.beforeApply?.(context, view) ?? Promise.resolve(), { heard, onGather: read });
            // Another replica won the claims' compare-and-swap: look again shortly (at a jittered
            // moment, so the losers do not race each other again), or this event waits for the schedule.
            // The other losers look again too: the retry is a heard tick (jittered start, checked write).
            if (report.busy) setTimeout(() => void state.trigger.trigger(true), BUSY_RETRY_MS * (1 + Math.random() / 2)).unref();
            else if (report.answered !== true) {
              // Only a tick that read and wrote what it planned lets the next sweep skip the repository.
              state.readAt = startedAt;
              await options.onTick?.(context, report, ticker);
            }
            if (!state.ticked) {
              state.ticked = true;
              await options.firstTick?.(context).catch((err: unknown) => app.log.warn({ err: err instanceof Error ? err.message : String(err), repo: key }, "bosun: could not create its labels; GitHub creates a missing label when it is added"));
            }
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

  const repoOf = (p: { repository?: { name: string; owner: { login: string }; default_branch: string } }) => (p.repository === undefined ? undefined : { owner: p.repository.owner.login, repo: p.repository.name, defaultBranch: p.repository.default_branch });
  /** A delivery heard through `hearDelivery`; a heard tick when it says one is due. */
  const hear = async (context: { name: string; payload: unknown; octokit: unknown }): Promise<void> => {
    const payload = context.payload as HeardPayload & { repository?: { name: string; owner: { login: string }; default_branch: string } };
    const where = repoOf(payload);
    if (where === undefined) return;
    const octokit = context.octokit as unknown as Octokit;
    // The repository's entry is made (or its client renewed) only once hearDelivery knows the delivery is heard.
    let entry: Awaited<ReturnType<typeof forRepo>> | undefined;
    const tickerOf = async (): Promise<RepoTicker> => (entry ??= await forRepo(octokit, where.owner, where.repo, where.defaultBranch)).ticker;
    const ticks = await hearDelivery(tickerOf, context.name, payload, { botLogin: await options.botLogin(), config: async () => (await options.loadConfig(octokit, where.owner, where.repo)).config });
    if (ticks && entry !== undefined) await entry.trigger.trigger(true);
  };

  // Issue events: which issue's approval to read again. The tick decides from GitHub, not from these.
  app.on([...HEARD_ISSUE_EVENTS], hear);

  app.on("issue_comment.created", async (context) => {
    const payload = context.payload as { repository?: { name: string; owner: { login: string }; default_branch: string }; comment?: { body?: string; user?: { login: string } }; issue?: { number: number } };
    const where = repoOf(payload);
    const body = payload.comment?.body ?? "";
    // Only commands: anyone can comment, and a comment must not make the bot write.
    if (where === undefined || payload.issue === undefined || !/^\s*\/bosun\b/.test(body)) return;
    const octokit = context.octokit as unknown as Octokit;
    const entry = await forRepo(octokit, where.owner, where.repo, where.defaultBranch);
    const { config } = await options.loadConfig(octokit, where.owner, where.repo);
    const author = payload.comment?.user?.login ?? "";
    const outcome = await entry.ticker.landByCommand(config, payload.issue.number, body, author);
    if (outcome !== "not a land command") app.log.info({ repo: `${where.owner}/${where.repo}`, issue: payload.issue.number, author }, `bosun land: ${outcome}`);
    entry.ticker.ask([]);
    await entry.trigger.trigger(true);
  });

  // A worker's run ended, a pull request moved, the gate posted: the tick lands and reviews from
  // GitHub (`ticksNow` says which of these set one off). A check run created already completed
  // may come as `created` only: both are heard.
  app.on([...HEARD_WORK_EVENTS], hear);

  // A branch appeared or went: the evidence probe lists branches again (no tick needed for that).
  app.on(["create", "delete"], async (context) => {
    const payload = context.payload as { ref_type?: string; repository?: { name: string; owner: { login: string } } };
    if (payload.ref_type !== "branch" || payload.repository === undefined) return;
    repos.get(`${payload.repository.owner.login}/${payload.repository.name}`.toLowerCase())?.ticker.invalidate("branches");
  });

  return {
    tickRepo: async (octokit, owner, repo, defaultBranch, unlessReadWithinMs) => {
      const entry = await forRepo(octokit, owner, repo, defaultBranch);
      // A sweep right after a tick this process made finds what that tick found: it is skipped.
      if (unlessReadWithinMs !== undefined && performance.now() - entry.readAt < unlessReadWithinMs) return;
      // A sweep that folds into a heard tick (one waiting its jittered moment, or the one queued
      // after the running tick) must still make it whole: the asks of a webhook never stop it.
      entry.ticker.ask([]);
      await entry.trigger.trigger();
    },
    ticker: async (octokit, owner, repo, defaultBranch) => (await forRepo(octokit, owner, repo, defaultBranch)).ticker,
  };
}
