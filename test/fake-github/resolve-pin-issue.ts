/**
 * `pinIssue(input: {issueId, clientMutationId})`: pins an issue above its repository's issue list.
 * As on GitHub: pinning needs write access ("People with write access to a repository can pin
 * issues"), a repository holds at most 3 pinned issues, and pinning a pinned issue is a success
 * that changes nothing. Failures are field errors: NOT_FOUND for an id the caller cannot resolve
 * (unknown, in a repository it cannot read, or a pull request's: only issues pin), FORBIDDEN
 * without write access, UNPROCESSABLE at the limit. A pin sends `issues.pinned`.
 */
import { hasPermission, scopeAllows } from "./authenticate.js";
import { GraphqlError } from "./graphql-error.js";
import { readGraphqlArguments, type GraphqlArgument, type GraphqlFieldRequest } from "./read-graphql-arguments.js";
import type { RouteContext } from "./route.js";
import { selectGraphqlFields } from "./select-graphql-fields.js";
import type { FakeState, IssueRecord, RepoState } from "./state.js";
import { issueJson } from "./to-json-issue.js";
import { nodeId } from "./to-json-user-repo.js";

/** GitHub's limit of pinned issues per repository. */
export const PINNED_ISSUES_LIMIT = 3;

const INPUT_FIELDS = ["issueId", "clientMutationId"];

function readInput(arg: GraphqlArgument): { issueId: string; clientMutationId: string | null } {
  const input = arg.value;
  if (typeof input !== "object" || input === null || Array.isArray(input)) throw arg.invalid([], input === undefined || input === null ? "Expected value to not be null" : "Expected value to be an object");
  const fields = input as Record<string, unknown>;
  const extra = Object.keys(fields).find((k) => !INPUT_FIELDS.includes(k));
  if (extra !== undefined) throw arg.invalid([extra], "Field is not defined on PinIssueInput");
  const { issueId, clientMutationId } = fields;
  if (issueId === undefined || issueId === null) throw arg.invalid(["issueId"], "Expected value to not be null");
  // ID accepts a string or an integer, like any GraphQL ID.
  if (typeof issueId !== "string" && typeof issueId !== "number") throw arg.invalid(["issueId"], `Could not coerce value ${JSON.stringify(issueId)} to ID`);
  if (clientMutationId !== undefined && clientMutationId !== null && typeof clientMutationId !== "string") throw arg.invalid(["clientMutationId"], `Could not coerce value ${JSON.stringify(clientMutationId)} to String`);
  return { issueId: String(issueId), clientMutationId: typeof clientMutationId === "string" ? clientMutationId : null };
}

/** The issue or pull request (by its issue or its pull request node id) the id names. */
function findNode(state: FakeState, id: string): { repo: RepoState; issue: IssueRecord } | undefined {
  for (const repo of state.repos.values()) {
    for (const issue of repo.issues.values()) {
      if (nodeId(issue.isPull ? "PullRequest" : "Issue", issue.id) === id) return { repo, issue };
    }
    for (const pull of repo.pulls.values()) {
      const issue = repo.issues.get(pull.number);
      if (issue !== undefined && nodeId("PullRequest", pull.id) === id) return { repo, issue };
    }
  }
  return undefined;
}

export function resolvePinIssue(state: FakeState, ctx: RouteContext, request: GraphqlFieldRequest): Record<string, unknown> {
  const { field } = request;
  const input = readInput(readGraphqlArguments(request, ["input"])("input"));
  const fail = (type: string, message: string): GraphqlError => new GraphqlError(message, { type, path: [], locations: [field.location] });
  const found = findNode(state, input.issueId);
  // As in REST, a private repository is invisible (not forbidden) to those who cannot read it.
  const visible = found !== undefined && hasPermission(found.repo, ctx.login, "read") ? found : undefined;
  const issue = visible !== undefined && !visible.issue.isPull ? visible.issue : undefined;
  // The selection is checked before anything changes: a bad document must not half-apply.
  const payload = selectGraphqlFields(field, "PinIssuePayload", { clientMutationId: input.clientMutationId }, {
    issue: (selection) => (issue === undefined ? null : selectGraphqlFields(selection, "Issue", { id: nodeId("Issue", issue.id), number: issue.number, title: issue.title, isPinned: true })),
  });
  if (visible === undefined) throw fail("NOT_FOUND", `Could not resolve to a node with the global id of '${input.issueId}'`);
  if (issue === undefined) throw fail("NOT_FOUND", `Could not resolve to Issue node with the global id of '${input.issueId}'`);
  const { repo } = visible;
  if (!hasPermission(repo, ctx.login, "write") || !scopeAllows(ctx.identity, "issues", "write")) throw fail("FORBIDDEN", ctx.identity.kind === "bot" ? "Resource not accessible by integration" : "Resource not accessible by personal access token");
  if (repo.pinnedIssues.includes(issue.number)) return payload;
  if (repo.pinnedIssues.length >= PINNED_ISSUES_LIMIT) throw fail("UNPROCESSABLE", `Pinned issues limit reached: a repository can pin at most ${PINNED_ISSUES_LIMIT} issues`);
  ctx.beforeWrite(repo);
  repo.pinnedIssues.push(issue.number);
  ctx.emit({ repo, event: "issues", action: "pinned", fields: () => ({ issue: issueJson(state, repo, issue) }) });
  return payload;
}
