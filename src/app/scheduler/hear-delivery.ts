import type { RepoTicker } from "../../adapters/github/tick/repo-ticker.js";
import { asksOfDelivery } from "../../adapters/github/tick/asks-of-delivery.js";
import { isBosunsRun, type GateCheckRun } from "../../adapters/github/tick/gate-of-check-run.js";
import { GATE_CHECK_NAME } from "../../adapters/github/tick/octokit-tick-github.js";
import type { HeardPull } from "../../adapters/github/tick/tick-github.js";
import type { BosunConfig } from "../../core/config/bosun-config.js";
import { normalizeLogin } from "../../core/separation/identity.js";
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

/** The issue events the scheduler hears, and the run, pull request and check run events. */
export const HEARD_ISSUE_EVENTS = ["issues.labeled", "issues.unlabeled", "issues.opened", "issues.edited", "issues.closed", "issues.reopened"] as const;
export const HEARD_WORK_EVENTS = ["workflow_run.completed", "pull_request", "check_run.created", "check_run.completed"] as const;

/** What of a webhook's payload the scheduler reads. */
export interface HeardPayload {
  readonly action?: string;
  readonly label?: { readonly name?: string };
  readonly issue?: { readonly number: number; readonly updated_at?: string };
  readonly sender?: { readonly login?: string };
  readonly check_run?: GateCheckRun & { readonly name?: string; readonly conclusion?: string | null };
  readonly pull_request?: HeardPull;
  readonly workflow_run?: { readonly event?: string; readonly display_title?: string };
}

export interface HearingContext {
  /** The App's bot login (`bosun[bot]`). */
  readonly botLogin: string;
  /** The repository's configuration, read (cached) only where a delivery needs it: a pull request's opening. */
  readonly config: () => Promise<BosunConfig>;
}

/**
 * What one webhook delivery tells a repository's ticker (hints, asks, a pull request's new state,
 * the App's own gate verdict), and whether it sets off a heard tick now. The App's handlers
 * (`registerScheduler`) and the chaos run both hear deliveries through this, so what the chaos
 * judges is what the App does. A delivery is a hint: the tick decides from GitHub.
 */
export async function hearDelivery(tickerOf: () => Promise<RepoTicker>, event: string, payload: HeardPayload, context: HearingContext): Promise<boolean> {
  return event === "issues" ? hearIssue(tickerOf, payload, context) : hearWork(tickerOf, event, payload, context);
}

async function hearIssue(tickerOf: () => Promise<RepoTicker>, payload: HeardPayload, context: HearingContext): Promise<boolean> {
  if (payload.issue === undefined) return false;
  // Bosun's own label writes come back as webhooks: they change nothing the tick does not know.
  if ((payload.sender?.login ?? "").toLowerCase() === context.botLogin.toLowerCase()) return false;
  // Only a delivery heard makes its repository's ticker (the App keeps one per repository it hears).
  const ticker = await tickerOf();
  // An approval asks only that it be recorded: if another replica already did, the tick stops at
  // the claims (under the configuration of the replica's last tick: before its first, it is whole).
  const readyLabel = ticker.lastConfig?.labels.ready;
  const [ask] = asksOfDelivery({ name: "issues", ...(payload.action === undefined ? {} : { action: payload.action }), issue: payload.issue, ...(payload.label === undefined ? {} : { label: payload.label }), ...(readyLabel === undefined ? {} : { readyLabel }) });
  // A closed issue has no approval to read: the tick reads any issue whose record is not final
  // and that the listing no longer shows.
  if (!HINTLESS_ISSUE_ACTIONS.has(payload.action ?? "")) ticker.hint(payload.issue.number, ask);
  // A close asks where the item's record stood at this replica's last read (no request): under
  // review or ended, the close leaves a tick nothing to do.
  const itemState = payload.action === "closed" ? ticker.lastSeen(payload.issue.number)?.state : undefined;
  if (!ticksNow({ name: "issues", action: payload.action ?? "", ...(itemState === undefined ? {} : { itemState }) }, undefined)) return false;
  if (ask === undefined) ticker.ask([]);
  return true;
}

async function hearWork(tickerOf: () => Promise<RepoTicker>, event: string, payload: HeardPayload, context: HearingContext): Promise<boolean> {
  // Only the App's own gate runs: anyone with write access can post one of that name.
  if (event === "check_run" && (payload.check_run?.name !== GATE_CHECK_NAME || !isBosunsRun(payload.check_run, normalizeLogin(context.botLogin)))) return false;
  // Only a pull request's opening asks the configuration (cached; a push to the default branch drops it).
  const config = event === "pull_request" && payload.action === "opened" ? await context.config() : undefined;
  const ticks = ticksNow({ name: event, ...(payload.action === undefined ? {} : { action: payload.action }), runEvent: payload.workflow_run?.event ?? "", checkStatus: payload.check_run?.status ?? null, checkConclusion: payload.check_run?.conclusion ?? null }, config);
  // A run that is not a worker's or a verification's carries nothing the tick keeps.
  if (event === "workflow_run" && !ticks) return false;
  const ticker = await tickerOf();
  if (event === "pull_request" && LISTED_PULL_ACTIONS.has(payload.action ?? "")) {
    if (payload.pull_request === undefined) ticker.invalidate("pulls");
    else ticker.github.heardPull(payload.pull_request);
  }
  // The App's own verdict is kept for the ticks and journalled where this replica can place it on
  // the item's review; one it cannot place yet asks a tick to read the claim records (a pass sets
  // off no tick otherwise, and a merge may end the review before any tick reads the verdict).
  const heard = event === "check_run" && payload.check_run !== undefined ? ticker.heardGate(payload.check_run) : "ignored";
  if (!ticks && heard === "unplaced") {
    ticker.ask([{ kind: "records" }]);
    return true;
  }
  if (!ticks) return false;
  // A run that ended or a pull request closed asks for its items' landing only: if another
  // replica (or the land job) already recorded it, the tick stops at the claims (`asksAnswered`).
  ticker.ask(asksOfDelivery({ name: event, ...(payload.action === undefined ? {} : { action: payload.action }), ...(payload.workflow_run === undefined ? {} : { workflow_run: payload.workflow_run }), ...(payload.pull_request === undefined ? {} : { pull_request: payload.pull_request }) }));
  return true;
}
