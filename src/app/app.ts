import type { Octokit } from "@octokit/rest";
import type { Probot } from "probot";
import { createConfigLoader } from "../adapters/github/config-loader.js";
import { createDashboardUpsert } from "./dashboard/upsert-dashboard.js";
import { throttledDashboard } from "./dashboard/throttled-dashboard.js";
import { APP_DEFAULTS } from "./app-defaults.js";
import { registerDashboardActions } from "./dashboard/register-dashboard-actions.js";
import { registerOnboarding } from "./onboarding/register-onboarding.js";
import { createSetupDashboard } from "./dashboard/setup-dashboard.js";
import { createLabelBootstrap } from "./intake/ensure-labels.js";
import type { AppOctokit } from "./app-octokit.js";
import { schedulerDashboardState, type RecentLand } from "./dashboard/scheduler-dashboard-state.js";
import { registerScheduler } from "./scheduler/register-scheduler.js";
import { scheduleTicks } from "./scheduler/schedule-ticks.js";
import type { Clock } from "../core/engine/clock.js";
import { traceLine } from "../core/journal/trace-line.js";
import { systemClock } from "../adapters/local/system-clock.js";
import { CONFIG_PATH } from "../adapters/github/config-loader.js";
import { pushedPaths } from "./pushed-paths.js";

/** Knobs for tests and operators; every one has a production default. */
export interface BosunAppOptions {
  /** The bot's login; default: asked once from `GET /app` (`<slug>[bot]`). */
  readonly botLogin?: string;
  /** The clock in ms (default `Date.now`). */
  readonly now?: () => number;
  /**
   * How long a configuration read is trusted before a conditional re-read (default 10 minutes): a
   * push to the default branch drops it at once, so this only bounds a lost push webhook.
   */
  readonly configMaxAgeMs?: number;
  /** Least time between two dashboard writes that change nothing a maintainer acts on (default 5 minutes). */
  readonly dashboardIntervalMs?: number;
  /** How long the dashboard's Setup section trusts its reads before conditional re-reads (default 10 minutes; a push to the default branch drops it). */
  readonly setupMaxAgeMs?: number;
  /** The scheduler's clock (default: the system clock). */
  readonly clock?: Clock;
  /** How long the sweep reuses its listing of installations and their repositories (default 10 minutes; their webhooks drop it at once). */
  readonly installationsMaxAgeMs?: number;
  /** Tick every installed repository this often, besides the webhooks (off when undefined). */
  readonly tickEveryMs?: number;
  /** The longest random wait before a tick a webhook set off (default `APP_DEFAULTS.heardJitterMs`; 0: none). */
  readonly heardJitterMs?: number;
  /** A user-to-server client for `assign` to Copilot, which refuses installation tokens (docs/dispatch.md). */
  readonly copilot?: Octokit;
  /**
   * This replica's name in the claims it writes (default `app-<host>-<pid>`). Replicas are told
   * apart by it — whose record is whose to mirror, whose lease is whose — so two in one process
   * (tests, benches) each need their own.
   */
  readonly holder?: string;
}

const RECENT_LANDS = 10;

/**
 * Bosun's Probot app: a plain function of the app; server, env and CLI wiring live elsewhere.
 * Every webhook is a hint to one tick per repository (docs/scheduling.md), which takes approvals
 * in, lands, reviews and grants; the dashboard follows the tick's own view.
 */
export function bosunApp(app: Probot, options: BosunAppOptions = {}): void {
  const now = options.now ?? (() => Date.now());
  const botLogin = once(async () => {
    if (options.botLogin !== undefined) return options.botLogin;
    const octokit = await app.auth();
    const { data } = await octokit.rest.apps.getAuthenticated();
    return `${data?.slug ?? "bosun"}[bot]`;
  });
  const upsertDashboard = createDashboardUpsert(botLogin, app.log);
  const configLoader = createConfigLoader({ now, maxAgeMs: options.configMaxAgeMs ?? APP_DEFAULTS.configMaxAgeMs });
  // The dashboard's Setup section: what `bosun doctor` finds, read conditionally (setup-dashboard.ts).
  const setupDashboard = createSetupDashboard({ now, maxAgeMs: options.setupMaxAgeMs ?? APP_DEFAULTS.setupMaxAgeMs, appOctokit: async () => (await app.auth()) as unknown as Octokit, log: app.log });
  // .github/bosun.yml is read at the default branch: a push there may have changed it, and the
  // Setup section reads the workflows and the issue form there. Every merge is such a push, so
  // they are read again only when the push touched them, or when it cannot say what it touched.
  app.on("push", async (context) => {
    const { ref, repository } = context.payload;
    if (repository.owner === null || ref !== `refs/heads/${repository.default_branch}`) return;
    const where = { owner: repository.owner.login, repo: repository.name };
    const paths = pushedPaths(context.payload);
    if (paths === undefined || paths.includes(CONFIG_PATH)) configLoader.invalidate(where);
    if (paths === undefined || paths.some((p) => p.startsWith(".github/"))) setupDashboard.invalidate(where);
  });
  const refreshDashboard = throttledDashboard(upsertDashboard, { now, minIntervalMs: options.dashboardIntervalMs ?? APP_DEFAULTS.dashboardIntervalMs });
  const labelBootstrap = createLabelBootstrap();
  const recent = new Map<string, RecentLand[]>();
  const idleShown = new Map<string, boolean>();
  registerOnboarding(app);
  const scheduler = registerScheduler(app, {
    loadConfig: (octokit, owner, repo) => configLoader.load(octokit as unknown as AppOctokit, { owner, repo }),
    clock: options.clock ?? systemClock,
    journal: { append: (event) => app.log.info({ bosun: event }, traceLine(event)) },
    botLogin,
    ...(options.copilot === undefined ? {} : { copilot: options.copilot }),
    ...(options.heardJitterMs === undefined ? {} : { heardJitterMs: options.heardJitterMs }),
    ...(options.holder === undefined ? {} : { holder: options.holder }),
    // The busy/idle line first, from the tick's own facts: a backlog of the tick's writes never
    // leaves the dashboard saying idle while anything is queued, held or in review.
    beforeApply: async ({ owner, repo, octokit, config, problems }, view) => {
      const key = `${owner}/${repo}`;
      if (idleShown.get(key) === view.idle) return;
      const setup = setupDashboard.current({ owner, repo });
      const state = schedulerDashboardState({ repo: key, now: now(), config, problems, view, recentLands: recent.get(key) ?? [] });
      await refreshDashboard(octokit as unknown as AppOctokit, { owner, repo }, setup === undefined ? state : { ...state, setup });
      idleShown.set(key, view.idle);
    },
    onTick: async ({ owner, repo, octokit, config, problems }, report, ticker) => {
      const key = `${owner}/${repo}`;
      const lands = recent.get(key) ?? [];
      // An item that reached review or merged waits in the review section; recent lands are ends only,
      // so ✅ means done (merged, and verified where the repository verifies), never "the run succeeded".
      for (const l of report.view.landed) if (l.disposition !== "review" && l.disposition !== "merged") lands.unshift({ issue: l.n, title: l.title, ok: l.disposition === "ok", summary: l.summary, at: now() });
      lands.splice(RECENT_LANDS);
      recent.set(key, lands);
      idleShown.set(key, report.view.idle);
      const state = schedulerDashboardState({ repo: key, now: now(), config, problems, view: report.view, recentLands: lands, events: ticker.recentEvents });
      const setup = await setupDashboard.refresh(octokit, { owner, repo });
      await refreshDashboard(octokit as unknown as AppOctokit, { owner, repo }, setup === undefined ? state : { ...state, setup });
    },
    // Labels once per repository and process, after its first tick: never on an approval's path
    // (GitHub creates a missing label when one is added, without Bosun's colour and description).
    firstTick: async ({ owner, repo, octokit, config }) => {
      await labelBootstrap(octokit as unknown as AppOctokit, { owner, repo }, config);
    },
  });
  registerDashboardActions(app, {
    config: configLoader,
    botLogin,
    retry: async (octokit, repo, issue, person, which, config) => {
      const { data } = await octokit.rest.repos.get(repo);
      const ticker = await scheduler.ticker(octokit as unknown as Octokit, repo.owner, repo.repo, data.default_branch);
      return ticker.retryByPerson(config, issue, person, which);
    },
    applied: (octokit, repo) => scheduler.tickRepo(octokit as unknown as Octokit, repo.owner, repo.repo, repo.defaultBranch),
  });
  // The timer is what makes the scheduler eventually right: webhooks can be lost, leases run out silently.
  if (options.tickEveryMs !== undefined) scheduleTicks(app, scheduler, options.tickEveryMs, { now, maxAgeMs: options.installationsMaxAgeMs ?? APP_DEFAULTS.installationsMaxAgeMs });
}

/** Memoises a lookup; a failure is forgotten so the next call retries. */
function once<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => {
    pending ??= load().catch((error: unknown) => {
      pending = undefined;
      throw error;
    });
    return pending;
  };
}
