import type { Octokit } from "@octokit/rest";
import type { Probot } from "probot";
import { renderDashboard } from "../core/dashboard/render-dashboard.js";
import { createConfigLoader } from "./config/load-config.js";
import { createDashboardUpsert } from "./dashboard/upsert-dashboard.js";
import { throttledDashboard } from "./dashboard/throttled-dashboard.js";
import { APP_DEFAULTS } from "./app-defaults.js";
import { SnapshotCache } from "./snapshot-cache.js";
import { intakeDashboardState } from "./dashboard/intake-dashboard-state.js";
import { registerDashboardActions } from "./dashboard/register-dashboard-actions.js";
import { registerOnboarding } from "./onboarding/register-onboarding.js";
import { createSetupDashboard } from "./dashboard/setup-dashboard.js";
import { createLabelBootstrap } from "./intake/ensure-labels.js";
import { registerIntake } from "./intake/register-intake.js";
import { createSerializeByKey } from "./intake/serialize-by-key.js";
import { createApprovalSweeper } from "./intake/sweep-approvals.js";
import type { AppOctokit } from "./app-octokit.js";
import { schedulerDashboardState } from "./dashboard/scheduler-dashboard-state.js";
import { gateVerdictReader, trustedGateApps } from "./dashboard/gate-check-events.js";
import { registerScheduler } from "./scheduler/register-scheduler.js";
import { scheduleTicks } from "./scheduler/schedule-ticks.js";
import type { Clock } from "../core/engine/clock.js";
import { traceLine } from "../core/journal/trace-line.js";
import { systemClock } from "../adapters/local/system-clock.js";

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
  /** Tick every installed repository this often, besides the webhooks (off when undefined). */
  readonly tickEveryMs?: number;
  /** Run the scheduler (default true); off, the app only takes briefs in (tests of the intake alone). */
  readonly scheduler?: boolean;
  /** A user-to-server client for `assign` to Copilot, which refuses installation tokens (docs/dispatch.md). */
  readonly copilot?: Octokit;
}

/** Bosun's Probot app: a plain function of the app; server, env and CLI wiring live elsewhere. */
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
  // .github/bosun.yml is read at the default branch: a push there may have changed it.
  app.on("push", async (context) => {
    const { ref, repository } = context.payload;
    if (repository.owner !== null && ref === `refs/heads/${repository.default_branch}`) {
      configLoader.invalidate({ owner: repository.owner.login, repo: repository.name });
      setupDashboard.invalidate({ owner: repository.owner.login, repo: repository.name });
    }
  });
  const refreshDashboard = throttledDashboard(upsertDashboard, { now, minIntervalMs: options.dashboardIntervalMs ?? APP_DEFAULTS.dashboardIntervalMs });
  // The intake's snapshots, known to the scheduler of this process without reading them back.
  const snapshots = new SnapshotCache();
  const labelBootstrap = createLabelBootstrap();
  registerIntake(app, {
    snapshots,
    config: configLoader,
    labels: labelBootstrap,
    botLogin,
    serialize: createSerializeByKey(),
    // A configuration broken (or fixed) shows on the dashboard at once, not at the next tick.
    onConfigProblems: async (octokit, repo, loaded) => {
      const setup = setupDashboard.current(repo);
      await upsertDashboard(octokit, repo, renderDashboard({ ...(await intakeDashboardState(octokit, repo, loaded, now())), ...(setup === undefined ? {} : { setup }) }));
    },
  });
  registerDashboardActions(app, { config: configLoader, botLogin });
  registerOnboarding(app);
  if (options.scheduler === false) return;
  // The gate's verdicts, read back from its check runs for the items this process landed (fleet metrics).
  const gateVerdictsOf = gateVerdictReader(snapshots, async () => trustedGateApps(await botLogin()), (error) => app.log.warn({ error }, "bosun: could not read bosun/gate check runs for the fleet metrics"));
  const scheduler = registerScheduler(app, {
    loadConfig: (octokit, owner, repo) => configLoader.load(octokit as unknown as AppOctokit, { owner, repo }),
    clock: options.clock ?? systemClock,
    journal: { append: (event) => app.log.info({ bosun: event }, traceLine(event)) },
    botLogin,
    snapshots,
    ...(options.copilot === undefined ? {} : { copilot: options.copilot }),
    // The dashboard follows the ticks: at once for what a maintainer acts on, else at most every few minutes.
    onTick: async ({ owner, repo, octokit, config, problems }, report, repoScheduler) => {
      const gates = await gateVerdictsOf(octokit as unknown as Octokit, { owner, repo }, repoScheduler.recentEvents);
      const state = schedulerDashboardState({ repo: `${owner}/${repo}`, now: now(), config, problems, report, recentLands: repoScheduler.recentLands, shadow: repoScheduler.shadow, denials: repoScheduler.denials, events: repoScheduler.recentEvents, gates, workRecords: repoScheduler.workRecords });
      const setup = await setupDashboard.refresh(octokit as unknown as Octokit, { owner, repo });
      await refreshDashboard(octokit as unknown as AppOctokit, { owner, repo }, setup === undefined ? state : { ...state, setup });
    },
  });
  // The timed sweep also takes in approvals whose webhook was lost or read stale, before the tick.
  const approvals = createApprovalSweeper();
  const sweepThenTick = {
    tickRepo: async (octokit: Parameters<typeof scheduler.tickRepo>[0], owner: string, repo: string, defaultBranch: string): Promise<void> => {
      const ref = { owner, repo };
      const appOctokit = octokit as unknown as AppOctokit;
      try {
        const loaded = await configLoader.load(appOctokit, ref);
        const site = { octokit: appOctokit, repo: ref, log: app.log.child({ repo: `${owner}/${repo}`, sweep: "approvals" }), labels: () => labelBootstrap(appOctokit, ref, loaded.config), snapshots };
        await approvals.sweep(site, await botLogin(), loaded.config);
      } catch (err) {
        app.log.error({ err: err instanceof Error ? err.message : String(err), repo: `${owner}/${repo}` }, "bosun: the approval sweep failed; the next sweep retries");
      }
      await scheduler.tickRepo(octokit, owner, repo, defaultBranch);
    },
  };
  if (options.tickEveryMs !== undefined) scheduleTicks(app, sweepThenTick, options.tickEveryMs);
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
