/** Labels: on issues (add, remove, set, list) and on the repository (create, get, list). */
import { HttpError, notFound, validationFailed } from "../http-error.js";
import { paginate } from "../paginate.js";
import { optionalString, optionalStringArray, requiredString } from "../read-body.js";
import type { Route, RouteContext } from "../route.js";
import type { FakeState } from "../state.js";
import { issueLabels, labelJson } from "../to-json-issue.js";
import { ensureLabel, findIssue, issueEventFields, recordLabelEvents } from "../issue-store.js";

function issueLabelList(state: FakeState, ctx: RouteContext, names: readonly string[]) {
  return names.flatMap((name) => {
    const label = ctx.repo.labels.get(name.toLowerCase());
    return label === undefined ? [] : [labelJson(state, ctx.repo, label)];
  });
}

function readLabelNames(ctx: RouteContext): string[] {
  // Octokit sends `{labels: [...]}`; GitHub also accepts a bare array.
  const raw = Array.isArray(ctx.body) ? { labels: ctx.body } : ctx.body;
  const names = optionalStringArray(raw, "labels");
  if (names === undefined) throw validationFailed(`Invalid request.\n\n"labels" wasn't supplied.`);
  return names;
}

function addLabels(state: FakeState, ctx: RouteContext) {
  const issue = findIssue(ctx);
  for (const name of readLabelNames(ctx)) {
    const label = ensureLabel(state, ctx.repo, name);
    if (issue.labels.some((have) => have.toLowerCase() === label.name.toLowerCase())) continue;
    recordLabelEvents(state, issue, issue.labels, [...issue.labels, label.name], ctx.login);
    issue.labels.push(label.name);
    issue.updatedAt = state.clock.now();
    ctx.emit({
      event: issue.isPull ? "pull_request" : "issues",
      action: "labeled",
      fields: () => ({ ...issueEventFields(state, ctx.repo, issue), label: labelJson(state, ctx.repo, label) }),
    });
  }
  return { status: 200, body: issueLabelList(state, ctx, issue.labels) };
}

function setLabels(state: FakeState, ctx: RouteContext) {
  const issue = findIssue(ctx);
  const before = issue.labels;
  issue.labels = [...new Set(readLabelNames(ctx).map((name) => ensureLabel(state, ctx.repo, name).name))];
  recordLabelEvents(state, issue, before, issue.labels, ctx.login);
  issue.updatedAt = state.clock.now();
  return { status: 200, body: issueLabelList(state, ctx, issue.labels) };
}

function removeLabel(state: FakeState, ctx: RouteContext) {
  const issue = findIssue(ctx);
  const name = ctx.params.name ?? "";
  const index = issue.labels.findIndex((have) => have.toLowerCase() === name.toLowerCase());
  if (index < 0) throw new HttpError(404, "Label does not exist");
  recordLabelEvents(state, issue, issue.labels, issue.labels.filter((_, i) => i !== index), ctx.login);
  const [removed] = issue.labels.splice(index, 1);
  issue.updatedAt = state.clock.now();
  const label = ctx.repo.labels.get((removed ?? name).toLowerCase());
  if (label !== undefined) {
    ctx.emit({
      event: issue.isPull ? "pull_request" : "issues",
      action: "unlabeled",
      fields: () => ({ ...issueEventFields(state, ctx.repo, issue), label: labelJson(state, ctx.repo, label) }),
    });
  }
  return { status: 200, body: issueLabelList(state, ctx, issue.labels) };
}

function listIssueLabels(state: FakeState, ctx: RouteContext) {
  const issue = findIssue(ctx);
  return paginate(ctx, issueLabels(ctx.repo, issue).map((l) => labelJson(state, ctx.repo, l)));
}

function createLabel(state: FakeState, ctx: RouteContext) {
  const name = requiredString(ctx.body, "name");
  if (ctx.repo.labels.has(name.toLowerCase())) {
    throw validationFailed("Validation Failed", [{ resource: "Label", code: "already_exists", field: "name" }]);
  }
  const color = (optionalString(ctx.body, "color") ?? "ededed").replace(/^#/, "");
  const label = ensureLabel(state, ctx.repo, name, color, optionalString(ctx.body, "description") ?? null);
  ctx.emit({ event: "label", action: "created", fields: () => ({ label: labelJson(state, ctx.repo, label) }) });
  return { status: 201, body: labelJson(state, ctx.repo, label) };
}

function getLabel(state: FakeState, ctx: RouteContext) {
  const label = ctx.repo.labels.get((ctx.params.name ?? "").toLowerCase());
  if (label === undefined) throw notFound();
  return { status: 200, body: labelJson(state, ctx.repo, label) };
}

function listLabels(state: FakeState, ctx: RouteContext) {
  return paginate(ctx, [...ctx.repo.labels.values()].map((l) => labelJson(state, ctx.repo, l)));
}

export const labelRoutes: Route[] = [
  { method: "GET", pattern: "/repos/{owner}/{repo}/issues/{issue_number}/labels", kind: "read", handler: listIssueLabels },
  { method: "POST", pattern: "/repos/{owner}/{repo}/issues/{issue_number}/labels", kind: "write", access: "triage", handler: addLabels },
  { method: "PUT", pattern: "/repos/{owner}/{repo}/issues/{issue_number}/labels", kind: "write", access: "triage", handler: setLabels },
  { method: "DELETE", pattern: "/repos/{owner}/{repo}/issues/{issue_number}/labels/{name}", kind: "write", access: "triage", handler: removeLabel },
  { method: "GET", pattern: "/repos/{owner}/{repo}/labels", kind: "read", handler: listLabels },
  { method: "POST", pattern: "/repos/{owner}/{repo}/labels", kind: "create", access: "write", handler: createLabel },
  { method: "GET", pattern: "/repos/{owner}/{repo}/labels/{name}", kind: "read", handler: getLabel },
];
