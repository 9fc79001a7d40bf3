import type { Band } from "../../core/brief/brief.js";
import { BRIEF_DEFAULTS, problemText } from "../../core/brief/brief.js";
import { parseIssueBody } from "../../core/brief/parse-issue-body.js";
import { DASHBOARD_MARKER, type DashboardState } from "../../core/dashboard/dashboard-state.js";
import { issueFacts } from "../../core/intake/issue-facts.js";
import type { QueueItem } from "../../core/queue/queue-item.js";
import { policyByName, hybrid } from "../../core/queue/queue-policy.js";
import type { AppOctokit, RepoRef } from "../app-octokit.js";
import type { LoadedConfig } from "../config/load-config.js";

interface ListedIssue {
  readonly number: number;
  readonly title: string;
  readonly body: string;
  readonly labels: readonly string[];
  readonly createdAt: number;
}

/**
 * The dashboard as the intake alone can see it, from labels: queued items per pool in policy order,
 * held and `needs-human` items, invalid briefs with their problems, configuration problems. It
 * knows nothing of leases (the scheduler's tick adds in-flight items and recent lands); band and
 * pool come from labels over the issue's current brief, which the snapshot may differ from.
 */
export async function intakeDashboardState(octokit: AppOctokit, repo: RepoRef, loaded: LoadedConfig, now: number): Promise<DashboardState> {
  const { config } = loaded;
  const L = config.labels;
  const list = async (label: string): Promise<ListedIssue[]> => {
    const items = await octokit.paginate(octokit.rest.issues.listForRepo, { ...repo, state: "open", labels: label, per_page: 100 });
    return items
      .filter((i) => i.pull_request === undefined && !(i.body ?? "").trimStart().startsWith(DASHBOARD_MARKER))
      .map((i) => ({ number: i.number, title: i.title, body: i.body ?? "", labels: i.labels.map((l) => (typeof l === "string" ? l : (l.name ?? ""))), createdAt: Date.parse(i.created_at) }));
  };
  const [queued, invalid, needsHuman, claimed] = [await list(L.queued), await list(L.invalidBrief), await list(L.needsHuman), await list(L.claimed)];
  const policy = policyByName(config.policy) ?? hybrid;
  const brief = (i: ListedIssue) => {
    const parsed = parseIssueBody(i.body, { name: `issue #${i.number}`, defaultId: String(i.number) });
    return parsed.ok ? parsed.brief : { priority: BRIEF_DEFAULTS.priority as Band, pool: BRIEF_DEFAULTS.pool };
  };
  const held = queued.filter((i) => i.labels.includes(L.hold));
  const ready = queued.filter((i) => !i.labels.includes(L.hold) && !i.labels.includes(L.claimed));
  const items = ready.map((i) => {
    const facts = issueFacts(i.labels, brief(i), config);
    const item: QueueItem = { id: String(i.number).padStart(10, "0"), band: facts.band, createdAt: i.createdAt, unblocks: 0, pool: facts.pool };
    return { issue: i, item };
  });
  const poolNames = [...new Set([...Object.keys(config.pools), ...items.map((x) => x.item.pool)])];
  return {
    repo: `${repo.owner}/${repo.repo}`,
    generatedAt: now,
    idle: ready.length === 0 && claimed.length === 0,
    policy: policy.name,
    configProblems: loaded.problems.map((p) => ({ field: p.field, message: p.message })),
    pools: poolNames.map((name) => ({
      name,
      size: config.pools[name]?.size ?? 0,
      queue: items
        .filter((x) => x.item.pool === name)
        .sort((a, b) => policy.compare(a.item, b.item, now))
        .map((x) => ({ issue: x.issue.number, title: x.issue.title, band: x.item.band, reason: policy.explain(x.item, now) })),
      inFlight: [],
    })),
    needsHuman: needsHuman.map((i) => ({ issue: i.number, title: i.title, reason: `labelled ${L.needsHuman}: see the latest Bosun comment` })),
    held: held.map((i) => ({ issue: i.number, title: i.title, reason: `held: see the latest Bosun comment; a writer re-approves the edited text with ${L.ready}, or releases the approved one here` })),
    invalid: invalid.map((i) => {
      const parsed = parseIssueBody(i.body, { name: `issue #${i.number}`, defaultId: String(i.number) });
      return { issue: i.number, title: i.title, problems: parsed.ok ? ["valid now: re-approve to queue it"] : parsed.problems.map(problemText) };
    }),
    recentLands: [],
  };
}
