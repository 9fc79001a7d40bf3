import type { Probot } from "probot";
import { hasWriteAccess } from "../../adapters/github/has-write-access.js";
import { statusOf } from "../../adapters/github/status-of.js";
import { planAction, tickedActions, untick, type DashboardTick } from "../../core/dashboard/dashboard-actions.js";
import { DASHBOARD_MARKER } from "../../core/dashboard/dashboard-state.js";
import type { AppOctokit } from "../app-octokit.js";
import type { ConfigLoader } from "../../adapters/github/config-loader.js";
import type { BosunConfig } from "../../core/config/bosun-config.js";
import { createSerializeByKey } from "../intake/serialize-by-key.js";

export interface DashboardActionsOptions {
  readonly config: ConfigLoader;
  /** The bot's login (`bosun[bot]`): only its dashboard issue is read for ticks. */
  readonly botLogin: () => Promise<string>;
  /** Writes a retry or requeue as a record (the scheduler's), for `person`: what happened, or why not. The scheduler ticks after, through `applied`. */
  readonly retry: (octokit: AppOctokit, repo: { owner: string; repo: string }, issue: number, person: string, which: "retry" | "requeue", config: BosunConfig) => Promise<string>;
  /**
   * This edit's ticks changed something (a label, a record) and its boxes are cleared: the
   * scheduler ticks now, so the queue and the dashboard follow at once. (Bosun's own label writes
   * come back as webhooks the scheduler ignores; and a tick before the boxes are cleared would
   * have its dashboard overwritten by the clearing.)
   */
  readonly applied?: (octokit: AppOctokit, repo: { owner: string; repo: string; defaultBranch: string }) => Promise<void>;
}

/** What one edit of the dashboard came to, for the log and the tests. */
export type DashboardEditOutcome =
  | { readonly kind: "not a dashboard edit" | "no new ticks" | "already handled" }
  | { readonly kind: "refused"; readonly sender: string; readonly ticks: readonly DashboardTick[] }
  | { readonly kind: "applied"; readonly sender: string; readonly applied: readonly DashboardTick[]; readonly skipped: ReadonlyArray<DashboardTick & { reason: string }> };

interface EditedPayload {
  readonly issue: { readonly number: number; readonly body: string | null; readonly updated_at: string; readonly user: { readonly login: string } | null };
  readonly changes?: { readonly body?: { readonly from?: string } };
  readonly sender: { readonly login: string };
  readonly repository: { readonly name: string; readonly owner: { readonly login: string }; readonly default_branch: string };
}

/** How many times a read of the dashboard that predates the edit is tried again (GitHub's reads can lag its writes). */
const STALE_READS = 3;
const STALE_WAIT_MS = 250;
/** Deliveries remembered per process, to drop a duplicate without a request. */
const SEEN_EDITS = 1000;

/**
 * Acts on the dashboard's checkboxes (`issues.edited` of the bot's dashboard issue), like
 * Renovate's Dependency Dashboard: the boxes this edit ticked are applied — only for someone
 * GitHub says has write access — then cleared. Applied once, however often the webhook comes:
 * a box is acted on only while the dashboard as read now still shows it ticked, each action
 * writes only when the item's labels still call for it, and this process remembers each delivery
 * id it handled. Refused ticks are cleared too, so a later writer's edit
 * cannot carry them along.
 */
export function registerDashboardActions(app: Probot, options: DashboardActionsOptions): void {
  const serialize = createSerializeByKey();
  const seen = new Set<string>();
  app.on("issues.edited", async (context) => {
    const payload = context.payload as unknown as EditedPayload;
    const repo = { owner: payload.repository.owner.login, repo: payload.repository.name };
    const octokit = context.octokit as unknown as AppOctokit;
    const outcome = await serialize(`${repo.owner}/${repo.repo}#${payload.issue.number}`, () => handleEdit(octokit, repo, payload, context.id, options, seen));
    if (outcome.kind === "refused" || outcome.kind === "applied") app.log.info({ repo: `${repo.owner}/${repo.repo}`, outcome }, `bosun dashboard: ${outcome.kind} ticks by ${outcome.sender}`);
    if (outcome.kind === "applied" && outcome.applied.length > 0) await options.applied?.(octokit, { ...repo, defaultBranch: payload.repository.default_branch });
  });
}

async function handleEdit(octokit: AppOctokit, repo: { owner: string; repo: string }, payload: EditedPayload, deliveryId: string, options: DashboardActionsOptions, seen: Set<string>): Promise<DashboardEditOutcome> {
  const body = payload.issue.body ?? "";
  if (!body.trimStart().startsWith(DASHBOARD_MARKER) || payload.issue.user?.login !== (await options.botLogin())) return { kind: "not a dashboard edit" };
  // The boxes this edit ticked: ticked now and not before it (a box ticked earlier was handled then).
  const before = new Set(tickedActions(payload.changes?.body?.from ?? "").map(key));
  const fresh = tickedActions(body).filter((t) => !before.has(key(t)));
  if (fresh.length === 0) return { kind: "no new ticks" };
  // A duplicate or a redelivery carries the same X-GitHub-Delivery id.
  if (seen.has(deliveryId)) return { kind: "already handled" };
  seen.add(deliveryId);
  // Remembered for the duplicates of the next while; the oldest edits are forgotten first.
  if (seen.size > SEEN_EDITS) seen.delete(seen.values().next().value as string);

  const current = await readDashboard(octokit, repo, payload.issue.number, payload.issue.updated_at);
  const stillTicked = new Set(tickedActions(current.body).map(key));
  const ticks = fresh.filter((t) => stillTicked.has(key(t)));
  if (ticks.length === 0) return { kind: "already handled" };

  const sender = payload.sender.login;
  // Write access to tick a box at all; a retry is then judged by the approval rule where it is written.
  if (!(await hasWriteAccess(octokit, repo.owner, repo.repo, sender))) {
    await clear(octokit, repo, payload.issue.number, current.body, ticks);
    return { kind: "refused", sender, ticks };
  }
  const { config } = await options.config.load(octokit, repo);
  const applied: DashboardTick[] = [];
  const skipped: Array<DashboardTick & { reason: string }> = [];
  for (const tick of ticks) {
    const item = await readItem(octokit, repo, tick.issue);
    const plan = item === undefined ? { skip: "no such issue" } : planAction(tick.action, item, config.labels);
    if ("skip" in plan) {
      skipped.push({ ...tick, reason: plan.skip });
      continue;
    }
    if ("record" in plan) {
      const outcome = await options.retry(octokit, repo, tick.issue, sender, plan.record, config);
      if (outcome === "requeued") applied.push(tick);
      else skipped.push({ ...tick, reason: outcome });
      continue;
    }
    // Removal first: a retried item must not be queued while it still says it needs a human.
    for (const name of plan.remove) await removeLabel(octokit, repo, tick.issue, name);
    if (plan.add.length > 0) await octokit.rest.issues.addLabels({ ...repo, issue_number: tick.issue, labels: plan.add });
    applied.push(tick);
  }
  await clear(octokit, repo, payload.issue.number, current.body, ticks);
  return { kind: "applied", sender, applied, skipped };
}

const key = (t: DashboardTick): string => `${t.action}=${t.issue}`;

/** The dashboard as GitHub has it now; a read older than the edit is tried again, briefly. */
async function readDashboard(octokit: AppOctokit, repo: { owner: string; repo: string }, number: number, editedAt: string): Promise<{ body: string }> {
  let data = (await octokit.rest.issues.get({ ...repo, issue_number: number })).data;
  for (let i = 1; i < STALE_READS && Date.parse(data.updated_at) < Date.parse(editedAt); i++) {
    await new Promise((r) => setTimeout(r, STALE_WAIT_MS));
    data = (await octokit.rest.issues.get({ ...repo, issue_number: number })).data;
  }
  return { body: data.body ?? "" };
}

async function readItem(octokit: AppOctokit, repo: { owner: string; repo: string }, number: number): Promise<{ open: boolean; labels: string[] } | undefined> {
  try {
    const { data } = await octokit.rest.issues.get({ ...repo, issue_number: number });
    if (data.pull_request !== undefined && data.pull_request !== null) return undefined;
    return { open: data.state === "open", labels: data.labels.map((l) => (typeof l === "string" ? l : (l.name ?? ""))) };
  } catch (error) {
    if (statusOf(error) === 404 || statusOf(error) === 410) return undefined;
    throw error;
  }
}

/** Removes a label; one already gone (404) is the outcome wanted. */
async function removeLabel(octokit: AppOctokit, repo: { owner: string; repo: string }, number: number, name: string): Promise<void> {
  try {
    await octokit.rest.issues.removeLabel({ ...repo, issue_number: number, name });
  } catch (error) {
    if (statusOf(error) !== 404) throw error;
  }
}

/** Clears the handled boxes, leaving anything else the body holds as it is. */
async function clear(octokit: AppOctokit, repo: { owner: string; repo: string }, number: number, body: string, ticks: readonly DashboardTick[]): Promise<void> {
  const next = untick(body, ticks);
  if (next !== body) await octokit.rest.issues.update({ ...repo, issue_number: number, body: next });
}
