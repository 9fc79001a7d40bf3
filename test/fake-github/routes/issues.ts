/** Issues: get, list (with label filter and pagination), create, update, assignees, events (an issue's, and the repository's). */
import { HttpError, validationFailed } from "../http-error.js";
import { paginate } from "../paginate.js";
import { nullableString, optionalString, optionalStringArray, requiredString } from "../read-body.js";
import type { Route, RouteContext } from "../route.js";
import type { FakeState, IssueRecord } from "../state.js";
import { issueJson } from "../to-json-issue.js";
import { userJson } from "../to-json-user-repo.js";
import { hasPermission } from "../authenticate.js";
import { ensureLabel, findIssue, insertIssue, recordLabelEvents } from "../issue-store.js";
import { isoTime } from "../clock.js";
import { nodeId, repoUrl } from "../to-json-user-repo.js";

function getIssue(state: FakeState, ctx: RouteContext) {
  return { status: 200, body: issueJson(state, ctx.repo, findIssue(ctx)) };
}

function listIssues(state: FakeState, ctx: RouteContext) {
  const wantState = ctx.query.get("state") ?? "open";
  const labels = (ctx.query.get("labels") ?? "").split(",").map((l) => l.trim().toLowerCase()).filter((l) => l !== "");
  const assignee = ctx.query.get("assignee");
  const creator = ctx.query.get("creator");
  const since = ctx.query.get("since");
  const sort = ctx.query.get("sort") ?? "created";
  const direction = ctx.query.get("direction") ?? "desc";
  const items = [...ctx.repo.issues.values()]
    .filter((i) => wantState === "all" || i.state === wantState)
    .filter((i) => labels.every((l) => i.labels.some((have) => have.toLowerCase() === l)))
    .filter((i) => matchesAssignee(i, assignee))
    .filter((i) => creator === null || i.user === creator)
    .filter((i) => since === null || i.updatedAt >= Date.parse(since))
    .sort((a, b) => {
      const key = sort === "updated" ? a.updatedAt - b.updatedAt : a.createdAt - b.createdAt || a.number - b.number;
      return direction === "asc" ? key : -key;
    });
  return paginate(ctx, items, { map: (i) => issueJson(state, ctx.repo, i) });
}

function matchesAssignee(issue: IssueRecord, assignee: string | null): boolean {
  if (assignee === null) return true;
  if (assignee === "*") return issue.assignees.length > 0;
  if (assignee === "none") return issue.assignees.length === 0;
  return issue.assignees.includes(assignee);
}

function createIssue(state: FakeState, ctx: RouteContext) {
  const title = requiredString(ctx.body, "title");
  const body = nullableString(ctx.body, "body");
  // GitHub drops labels and assignees silently when the author cannot triage.
  const canTriage = hasPermission(ctx.repo, ctx.login, "triage");
  const issue = insertIssue(state, ctx.repo, {
    title,
    body: body ?? null,
    user: ctx.login,
    labels: canTriage ? (optionalStringArray(ctx.body, "labels") ?? []) : [],
    assignees: canTriage ? (optionalStringArray(ctx.body, "assignees") ?? []) : [],
  });
  ctx.emit({ event: "issues", action: "opened", fields: () => ({ issue: issueJson(state, ctx.repo, issue) }) });
  return { status: 201, body: issueJson(state, ctx.repo, issue) };
}

const EVENT_TYPES: Record<string, string> = { labeled: "LabeledEvent", unlabeled: "UnlabeledEvent", closed: "ClosedEvent", reopened: "ReopenedEvent", base_ref_changed: "BaseRefChangedEvent" };

/** One issue event as GitHub lists it (`issue-event-for-issue` on an issue; with its `issue` on the repository's list). */
function issueEventJson(state: FakeState, ctx: RouteContext, e: IssueRecord["events"][number]): Record<string, unknown> {
  return {
    id: e.id,
    node_id: nodeId(EVENT_TYPES[e.event] ?? "IssueEvent", e.id),
    url: `${repoUrl(state, ctx.repo)}/issues/events/${e.id}`,
    actor: userJson(state, e.actor),
    event: e.event,
    commit_id: null,
    commit_url: null,
    created_at: isoTime(e.createdAt),
    performed_via_github_app: null,
    ...(e.event === "labeled" || e.event === "unlabeled" ? { label: { name: e.label, color: ctx.repo.labels.get(e.label.toLowerCase())?.color ?? "ededed" } } : {}),
  };
}

/**
 * `GET /repos/{o}/{r}/issues/events`: every issue's and pull request's events in the repository,
 * newest first (by id), each with its `issue`: what a client reads to find many issues' latest
 * label events in one request.
 */
function listRepoIssueEvents(state: FakeState, ctx: RouteContext) {
  const all = [...ctx.repo.issues.values()].flatMap((issue) => issue.events.map((e) => ({ issue, e }))).sort((a, b) => b.e.id - a.e.id);
  return paginate(ctx, all, { map: ({ issue, e }) => ({ ...issueEventJson(state, ctx, e), issue: issueJson(state, ctx.repo, issue) }) });
}

/** `GET .../issues/{n}/events`: label events (`labeled-issue-event`), and a pull request's closed, reopened and base_ref_changed, oldest first. */
function listIssueEvents(state: FakeState, ctx: RouteContext) {
  const issue = findIssue(ctx);
  return paginate(ctx, issue.events, {
    map: (e) => issueEventJson(state, ctx, e),
  });
}

function updateIssue(state: FakeState, ctx: RouteContext) {
  const issue = findIssue(ctx);
  const now = state.clock.now();
  const title = optionalString(ctx.body, "title");
  const body = nullableString(ctx.body, "body");
  const newState = optionalString(ctx.body, "state");
  const reason = nullableString(ctx.body, "state_reason");
  const labels = optionalStringArray(ctx.body, "labels");
  const assignees = optionalStringArray(ctx.body, "assignees");
  if (newState !== undefined && newState !== "open" && newState !== "closed") {
    throw validationFailed("Validation Failed", [{ resource: "Issue", field: "state", code: "invalid" }]);
  }
  if (title !== undefined) issue.title = title;
  if (body !== undefined && body !== issue.body) {
    issue.body = body;
    // GraphQL's `lastEditedAt` follows the body, at whole seconds like every GitHub time.
    issue.lastEditedAt = now;
    issue.editor = ctx.login;
  }
  if (labels !== undefined) {
    const before = issue.labels;
    issue.labels = [...new Set(labels.map((name) => ensureLabel(state, ctx.repo, name).name))];
    recordLabelEvents(state, issue, before, issue.labels, ctx.login);
  }
  if (assignees !== undefined) issue.assignees = [...new Set(assignees)];
  const stateChanged = newState !== undefined && newState !== issue.state;
  if (stateChanged) {
    issue.state = newState as IssueRecord["state"];
    issue.closedAt = newState === "closed" ? now : null;
    issue.stateReason = newState === "closed" ? ((reason as IssueRecord["stateReason"]) ?? "completed") : "reopened";
  }
  issue.updatedAt = now;
  if (stateChanged) {
    ctx.emit({ event: "issues", action: issue.state === "closed" ? "closed" : "reopened", fields: () => ({ issue: issueJson(state, ctx.repo, issue) }) });
  }
  if (title !== undefined || body !== undefined) {
    ctx.emit({ event: "issues", action: "edited", fields: () => ({ issue: issueJson(state, ctx.repo, issue) }) });
  }
  return { status: 200, body: issueJson(state, ctx.repo, issue) };
}

/** Copilot's coding agent as an assignee (`copilot-swe-agent`, or `Copilot` as the web shows it). */
const COPILOT = /^(copilot|copilot-swe-agent)(\[bot\])?$/i;

function addAssignees(state: FakeState, ctx: RouteContext) {
  const issue = findIssue(ctx);
  const logins = optionalStringArray(ctx.body, "assignees") ?? [];
  for (const login of logins) {
    if (issue.assignees.includes(login)) continue;
    // Copilot's coding agent takes work only from a user-to-server token (a PAT or an App's user
    // token); with an installation token GitHub leaves it out, like any login it cannot assign.
    if (COPILOT.test(login) && ctx.identity.kind !== "user") continue;
    // GitHub silently ignores logins that cannot be assigned; the fake assigns anyone it was told about.
    if (issue.assignees.length >= 10) throw new HttpError(422, "Validation Failed");
    issue.assignees.push(login);
    issue.updatedAt = state.clock.now();
    ctx.emit({ event: "issues", action: "assigned", fields: () => ({ issue: issueJson(state, ctx.repo, issue), assignee: userJson(state, login) }) });
  }
  return { status: 201, body: issueJson(state, ctx.repo, issue) };
}

export const issueRoutes: Route[] = [
  { method: "GET", pattern: "/repos/{owner}/{repo}/issues", kind: "read", handler: listIssues },
  { method: "POST", pattern: "/repos/{owner}/{repo}/issues", kind: "create", access: "read", handler: createIssue },
  { method: "GET", pattern: "/repos/{owner}/{repo}/issues/{issue_number}", kind: "read", handler: getIssue },
  { method: "GET", pattern: "/repos/{owner}/{repo}/issues/{issue_number}/events", kind: "read", handler: listIssueEvents },
  { method: "GET", pattern: "/repos/{owner}/{repo}/issues/events", kind: "read", handler: listRepoIssueEvents },
  { method: "PATCH", pattern: "/repos/{owner}/{repo}/issues/{issue_number}", kind: "write", access: "triage", handler: updateIssue },
  { method: "POST", pattern: "/repos/{owner}/{repo}/issues/{issue_number}/assignees", kind: "write", access: "triage", handler: addAssignees },
];
