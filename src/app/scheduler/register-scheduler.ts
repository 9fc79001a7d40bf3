import { hostname } from "node:os";
import type { Octokit } from "@octokit/rest";
import type { Probot } from "probot";
import { RepoTicker } from "../../adapters/github/tick/repo-ticker.js";
import { asksOfDelivery } from "../../adapters/github/tick/asks-of-delivery.js";
import { isBosunsRun, type GateCheckRun } from "../../adapters/github/tick/gate-of-check-run.js";
import { GATE_CHECK_NAME } from "../../adapters/github/tick/octokit-tick-github.js";
import type { TickReport } from "../../adapters/github/tick/run-tick.js";
import type { HeardPull } from "../../adapters/github/tick/tick-github.js";
import type { BosunConfig } from "../../core/config/bosun-config.js";
import type { ConfigProblem } from "../../core/config/parse-config.js";
import type { Clock } from "../../core/engine/clock.js";
import type { Journal } from "../../core/journal/journal-event.js";
import { normalizeLogin } from "../../core/separation/identity.js";
import type { TickView } from "../../core/scheduler/tick-plan.js";
import { APP_DEFAULTS } from "../app-defaults.js";
import { coalescedTicker } from "./coalesced-ticker.js";
import { ticksNow } from "./ticking-delivery.js";

/**
 * Issue activity that needs no read of the issue's approval events: a closed issue stops being a
 * candidate by the listing alone. A removed label is hinted: an approval under a minute old is
 * trusted unless its issue's events are read again (`approval-stands.ts`), and a listing read right
 * after the removal may still show the label.
 */
const HINTLESS_ISSUE_ACTIONS: ReadonlySet<string> = new Set(["closed"]);

/** Pull request activity that changes what the listing shows of it: state, head, body (its `Closes #n`). */
const LISTED_PULL_ACTIONS: ReadonlySet<string> = new Set(["opened", "reopened", "closed", "synchronize", "edited"]);

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

  type Payload = { action?: string; label?: { name?: string }; repository?: { name: string; owner: { login: string }; default_branch: string }; comment?: { body?: string; user?: { login: string } }; issue?: { number: number; updated_at?: string }; sender?: { login?: string }; check_run?: GateCheckRun & { name?: string; conclusion?: string | null }; pull_request?: HeardPull; workflow_run?: { event?: string; display_title?: string } };
  const repoOf = (p: Payload) => (p.repository === undefined ? undefined : { owner: p.repository.owner.login, repo: p.repository.name, defaultBranch: p.repository.default_branch });

  // Issue events: which issue's approval to read again. The tick decides from GitHub, not from these.
  app.on(["issues.labeled", "issues.unlabeled", "issues.opened", "issues.edited", "issues.closed", "issues.reopened"], async (context) => {
    const payload = context.payload as Payload;
    const where = repoOf(payload);
    if (where === undefined || payload.issue === undefined) return;
    // Bosun's own label writes come back as webhooks: they change nothing the tick does not know.
    if ((payload.sender?.login ?? "").toLowerCase() === (await options.botLogin()).toLowerCase()) return;
    const entry = await forRepo(context.octokit as unknown as Octokit, where.owner, where.repo, where.defaultBranch);
    // An approval asks only that it be recorded: if another replica already did, the tick stops at
    // the claims (under the configuration of the replica's last tick: before its first, it is whole).
    const readyLabel = entry.ticker.lastConfig?.labels.ready;
    const [ask] = asksOfDelivery({ name: "issues", ...(payload.action === undefined ? {} : { action: payload.action }), issue: payload.issue, ...(payload.label === undefined ? {} : { label: payload.label }), ...(readyLabel === undefined ? {} : { readyLabel }) });
    // A closed issue has no approval to read: the tick reads any issue whose record is not final
    // and that the listing no longer shows.
    if (!HINTLESS_ISSUE_ACTIONS.has(payload.action ?? "")) entry.ticker.hint(payload.issue.number, ask);
    // A close asks where the item's record stood at this replica's last read (no request): under
    // review or ended, the close leaves a tick nothing to do.
    const itemState = payload.action === "closed" ? entry.ticker.lastSeen(payload.issue.number)?.state : undefined;
    if (!ticksNow({ name: "issues", action: payload.action ?? "", ...(itemState === undefined ? {} : { itemState }) }, undefined)) return;
    if (ask === undefined) entry.ticker.ask([]);
    await entry.trigger.trigger(true);
  });

  app.on("issue_comment.created", async (context) => {
    const payload = context.payload as Payload;
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
  app.on(["workflow_run.completed", "pull_request", "check_run.created", "check_run.completed"], async (context) => {
    const payload = context.payload as Payload;
    const where = repoOf(payload);
    if (where === undefined) return;
    // Only the App's own gate runs: anyone with write access can post one of that name.
    if (context.name === "check_run" && (payload.check_run?.name !== GATE_CHECK_NAME || !isBosunsRun(payload.check_run, normalizeLogin(await options.botLogin())))) return;
    const octokit = context.octokit as unknown as Octokit;
    // Only a pull request's opening asks the configuration (cached; a push to the default branch drops it).
    const config = context.name === "pull_request" && payload.action === "opened" ? (await options.loadConfig(octokit, where.owner, where.repo)).config : undefined;
    const ticks = ticksNow({ name: context.name, ...(payload.action === undefined ? {} : { action: payload.action }), runEvent: payload.workflow_run?.event ?? "", checkStatus: payload.check_run?.status ?? null, checkConclusion: payload.check_run?.conclusion ?? null }, config);
    // A run that is not a worker's or a verification's carries nothing the tick keeps.
    if (context.name === "workflow_run" && !ticks) return;
    const entry = await forRepo(octokit, where.owner, where.repo, where.defaultBranch);
    if (context.name === "pull_request" && LISTED_PULL_ACTIONS.has(payload.action ?? "")) {
      if (payload.pull_request === undefined) entry.ticker.invalidate("pulls");
      else entry.ticker.github.heardPull(payload.pull_request);
    }
    // The App's own verdict is kept for the ticks and journalled where this replica can place it on
    // the item's review; one it cannot place yet asks a tick to read the claim records (a pass sets
    // off no tick otherwise, and a merge may end the review before any tick reads the verdict).
    const heard = context.name === "check_run" && payload.check_run !== undefined ? entry.ticker.heardGate(payload.check_run) : "ignored";
    if (!ticks && heard === "unplaced") {
      entry.ticker.ask([{ kind: "records" }]);
      await entry.trigger.trigger(true);
      return;
    }
    if (!ticks) return;
    // A run that ended or a pull request closed asks for its items' landing only: if another
    // replica (or the land job) already recorded it, the tick stops at the claims (`asksAnswered`).
    entry.ticker.ask(asksOfDelivery({ name: context.name, ...(payload.action === undefined ? {} : { action: payload.action }), ...(payload.workflow_run === undefined ? {} : { workflow_run: payload.workflow_run }), ...(payload.pull_request === undefined ? {} : { pull_request: payload.pull_request }) }));
    await entry.trigger.trigger(true);
  });

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
