import type { DashboardState } from "../../core/dashboard/dashboard-state.js";
import { renderDashboard } from "../../core/dashboard/render-dashboard.js";
import { repoKey, type AppOctokit, type RepoRef } from "../app-octokit.js";
import type { DashboardUpsert, UpsertResult } from "./upsert-dashboard.js";

/** Writes the dashboard after a tick: at once when what a maintainer acts on changed, else at most once per interval. */
export type DashboardRefresh = (octokit: AppOctokit, repo: RepoRef, state: DashboardState) => Promise<UpsertResult | "deferred">;

/**
 * Every tick changes the dashboard (leases, queue order, recent lands), and a write per tick
 * would cost a request per landed item. What a maintainer must see at once — the fleet going idle
 * or busy, an item needing a human, an invalid brief, a broken configuration — is written at once;
 * the rest waits until `minIntervalMs` has passed since the last write (the next tick writes it).
 */
export function throttledDashboard(upsert: DashboardUpsert, options: { readonly now: () => number; readonly minIntervalMs: number }): DashboardRefresh {
  const last = new Map<string, { at: number; headline: string }>();
  return async (octokit, repo, state) => {
    const key = repoKey(repo);
    const headline = JSON.stringify({
      idle: state.idle,
      problems: state.configProblems.map((p) => `${p.field}: ${p.message}`),
      human: state.needsHuman.map((n) => n.issue),
      held: (state.held ?? []).map((n) => n.issue),
      invalid: state.invalid.map((n) => n.issue),
      setup: (state.setup?.problems ?? []).map((p) => `${p.check} ${p.subject ?? ""}: ${p.message}`),
    });
    const now = options.now();
    const previous = last.get(key);
    if (previous !== undefined && previous.headline === headline && now - previous.at < options.minIntervalMs) return "deferred";
    const result = await upsert(octokit, repo, renderDashboard(state));
    last.set(key, { at: now, headline });
    return result;
  };
}
