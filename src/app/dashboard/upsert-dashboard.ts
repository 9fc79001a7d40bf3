import { DASHBOARD_MARKER, DASHBOARD_TITLE } from "../../core/dashboard/dashboard-state.js";
import { repoKey, type AppOctokit, type RepoRef } from "../app-octokit.js";
import { pinIssue } from "./pin-issue.js";

export type UpsertResult = "created" | "updated" | "unchanged";

/** Writes the dashboard body: at most one write per call, none when the body is unchanged. */
export type DashboardUpsert = (octokit: AppOctokit, repo: RepoRef, body: string) => Promise<UpsertResult>;

/**
 * The dashboard issue, one per repository, like Renovate's dependency dashboard: an open issue
 * opened by the bot whose body starts with the marker (the oldest one, should there be several).
 * It is found once per process by listing the bot's open issues, created when missing (and, when
 * another replica opened one at the same moment, the later one closed), and then remembered with
 * the body last written, so an unchanged body costs no request at all. A new one
 * is pinned, once: a pin that fails (3 issues pinned already, no permission) is logged and not
 * retried, and an existing one is never pinned again (a maintainer who unpinned it meant it).
 */
export function createDashboardUpsert(botLogin: () => Promise<string>, log?: { warn(obj: object, msg: string): void }): DashboardUpsert {
  const known = new Map<string, { number: number; body: string }>();
  // One write at a time per repository: two writers at once (the intake reporting a broken
  // configuration, and a tick) both found no dashboard, and each opened and pinned one.
  const lanes = new Map<string, Promise<unknown>>();
  return (octokit, repo, body) => {
    const key = repoKey(repo);
    const previous = lanes.get(key) ?? Promise.resolve();
    const mine = previous.catch(() => undefined).then(() => write(octokit, repo, body));
    const lane = mine.catch(() => undefined);
    lanes.set(key, lane);
    void lane.then(() => {
      if (lanes.get(key) === lane) lanes.delete(key);
    });
    return mine;
  };

  async function write(octokit: AppOctokit, repo: RepoRef, body: string): Promise<UpsertResult> {
    const key = repoKey(repo);
    let found = known.get(key) ?? (await oldest(octokit, repo));
    if (found === undefined) {
      const { data } = await octokit.rest.issues.create({ ...repo, title: DASHBOARD_TITLE, body });
      // Another process (a replica) may have found none at the same moment and opened one too: the
      // oldest open one is the dashboard. The later one is closed by its opener, who writes its body
      // into the oldest and never pins, so every replica writes the same issue and one is pinned.
      const first = await oldest(octokit, repo);
      if (first !== undefined && first.number < data.number) {
        await octokit.rest.issues.update({ ...repo, issue_number: data.number, state: "closed", state_reason: "not_planned" });
        found = first;
      } else {
        known.set(key, { number: data.number, body });
        const pin = await pinIssue(octokit, data.node_id);
        if (!pin.pinned) log?.warn({ repo: key, issue: data.number, reason: pin.reason }, "bosun: dashboard issue opened but not pinned");
        return "created";
      }
    }
    if (found.body === body) {
      known.set(key, found);
      return "unchanged";
    }
    await octokit.rest.issues.update({ ...repo, issue_number: found.number, body });
    known.set(key, { number: found.number, body });
    return "updated";
  }

  /** The oldest open issue the bot opened whose body starts with the marker. */
  async function oldest(octokit: AppOctokit, repo: RepoRef): Promise<{ number: number; body: string } | undefined> {
    const creator = await botLogin();
    const issues = await octokit.paginate(octokit.rest.issues.listForRepo, { ...repo, state: "open", creator, per_page: 100 });
    const dashboard = issues.filter((i) => i.pull_request === undefined && (i.body ?? "").trimStart().startsWith(DASHBOARD_MARKER)).sort((a, b) => a.number - b.number)[0];
    return dashboard === undefined ? undefined : { number: dashboard.number, body: dashboard.body ?? "" };
  }
}
