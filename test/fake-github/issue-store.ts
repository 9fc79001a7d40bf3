/** Lookups and inserts shared by the issue, label, comment and pull routes and by seeding. */
import { notFound } from "./http-error.js";
import { intParam } from "./read-body.js";
import type { RouteContext } from "./route.js";
import { nextId, type FakeState, type IssueRecord, type LabelRecord, type RepoState } from "./state.js";
import { issueJson } from "./to-json-issue.js";
import { pullJson } from "./to-json-pull.js";

/** The issue (or pull request conversation) numbered by `params[key]`; 404 when absent. */
export function findIssue(ctx: RouteContext, key = "issue_number"): IssueRecord {
  const issue = ctx.repo.issues.get(intParam(ctx.params, key));
  if (issue === undefined) throw notFound();
  return issue;
}

/** The repository label with this name (case-insensitive), created grey when absent, as GitHub does on add. */
export function ensureLabel(state: FakeState, repo: RepoState, name: string, color = "ededed", description: string | null = null): LabelRecord {
  const key = name.toLowerCase();
  let label = repo.labels.get(key);
  if (label === undefined) {
    label = { id: nextId(state), name, color, description, default: false };
    repo.labels.set(key, label);
  }
  return label;
}

/** Stores a new issue; shared by the create route and the seeding helpers. */
export function insertIssue(
  state: FakeState,
  repo: RepoState,
  input: { title: string; body?: string | null; user: string; labels?: string[]; assignees?: string[]; isPull?: boolean },
): IssueRecord {
  const now = state.clock.now();
  const labels = (input.labels ?? []).map((name) => ensureLabel(state, repo, name).name);
  const issue: IssueRecord = {
    id: nextId(state),
    number: repo.nextNumber++,
    title: input.title,
    body: input.body ?? null,
    state: "open",
    stateReason: null,
    user: input.user,
    labels: [...new Set(labels)],
    assignees: [...new Set(input.assignees ?? [])],
    locked: false,
    createdAt: now,
    updatedAt: now,
    closedAt: null,
    lastEditedAt: null,
    editor: null,
    isPull: input.isPull ?? false,
    events: [],
  };
  recordLabelEvents(state, issue, [], issue.labels, input.user);
  repo.issues.set(issue.number, issue);
  return issue;
}

/** Records the label events between two label sets, as GitHub's issue events list shows them. */
export function recordLabelEvents(state: FakeState, issue: IssueRecord, before: readonly string[], after: readonly string[], actor: string): void {
  const had = new Set(before.map((l) => l.toLowerCase()));
  const has = new Set(after.map((l) => l.toLowerCase()));
  const at = state.clock.now();
  for (const label of after) if (!had.has(label.toLowerCase())) issue.events.push({ id: nextId(state), event: "labeled", label, actor, createdAt: at });
  for (const label of before) if (!has.has(label.toLowerCase())) issue.events.push({ id: nextId(state), event: "unlabeled", label, actor, createdAt: at });
}

/** Webhook payload part for an issue-like: `{issue}` or, for a pull request, `{number, pull_request}`. */
export function issueEventFields(state: FakeState, repo: RepoState, issue: IssueRecord): Record<string, unknown> {
  const pull = issue.isPull ? repo.pulls.get(issue.number) : undefined;
  if (pull !== undefined) return { number: issue.number, pull_request: pullJson(state, repo, pull) };
  return { issue: issueJson(state, repo, issue) };
}
