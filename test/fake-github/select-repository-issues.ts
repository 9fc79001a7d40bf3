/**
 * `Repository.issues(labels, states, orderBy, first, after, last, before)` as GitHub answers it:
 * never pull requests; `labels` keeps issues with ANY of the labels (unlike REST's `labels`, which
 * wants all of them); `states` OPEN/CLOSED; `orderBy` CREATED_AT, UPDATED_AT or COMMENTS, ASC or
 * DESC (default CREATED_AT ASC). An empty `labels` or `states` list filters nothing.
 */
import type { GraphqlField } from "./parse-graphql-operation.js";
import { readGraphqlArguments, type GraphqlArgument, type GraphqlFieldRequest } from "./read-graphql-arguments.js";
import { CONNECTION_ARGUMENTS, selectGraphqlConnection } from "./select-graphql-connection.js";
import { selectGraphqlIssue } from "./select-graphql-issue.js";
import type { CommentRecord, IssueRecord, RepoState } from "./state.js";

const ISSUE_STATES = ["OPEN", "CLOSED"];
const ORDER_FIELDS = ["CREATED_AT", "UPDATED_AT", "COMMENTS"];
const DIRECTIONS = ["ASC", "DESC"];

/** `repo` undefined (not found, or not readable): no issues, but the selection is still checked. */
export function selectRepositoryIssues(request: GraphqlFieldRequest, repo: RepoState | undefined, field: GraphqlField): Record<string, unknown> {
  const arg = readGraphqlArguments({ ...request, field }, ["labels", "states", "orderBy", ...CONNECTION_ARGUMENTS]);
  const labels = readList(arg("labels"), "String", (v) => (typeof v === "string" ? v : undefined));
  const states = readList(arg("states"), "IssueState", (v) => (typeof v === "string" && ISSUE_STATES.includes(v) ? v : undefined), ISSUE_STATES);
  const order = readOrder(arg("orderBy"));
  const comments = new Map<number, CommentRecord[]>();
  for (const comment of repo?.comments.values() ?? []) comments.set(comment.issueNumber, [...(comments.get(comment.issueNumber) ?? []), comment]);
  // Label names are unique in a repository regardless of case, as on GitHub.
  const wanted = new Set(labels.map((name) => name.toLowerCase()));
  const issues = [...(repo?.issues.values() ?? [])].filter(
    (issue) =>
      !issue.isPull &&
      (states.length === 0 || states.includes(issue.state.toUpperCase())) &&
      (wanted.size === 0 || issue.labels.some((name) => wanted.has(name.toLowerCase()))),
  );
  const sortValue = (issue: IssueRecord): number =>
    order.field === "UPDATED_AT" ? issue.updatedAt : order.field === "COMMENTS" ? (comments.get(issue.number)?.length ?? 0) : issue.createdAt;
  return selectGraphqlConnection(field, arg, {
    nodeType: "Issue",
    items: issues,
    sortKey: (issue) => [sortValue(issue), issue.number],
    descending: order.direction === "DESC",
    node: (selection, issue) => selectGraphqlIssue(request, repo, selection, issue, issue === undefined ? [] : (comments.get(issue.number) ?? [])),
  });
}

/** A list argument; GraphQL takes a single value where a list is expected as a list of one. */
function readList(arg: GraphqlArgument, type: string, read: (value: unknown) => string | undefined, allowed?: readonly string[]): string[] {
  if (arg.value === undefined || arg.value === null) return [];
  const list: unknown[] = Array.isArray(arg.value) ? arg.value : [arg.value];
  return list.map((item, i) => {
    const value = read(item);
    if (value !== undefined) return value;
    if (item === null) throw arg.invalid([i], "Expected value to not be null");
    throw arg.invalid([i], allowed === undefined ? `Could not coerce value ${JSON.stringify(item)} to ${type}` : `Expected ${JSON.stringify(item)} to be one of: ${allowed.join(", ")}`);
  });
}

function readOrder(arg: GraphqlArgument): { field: string; direction: string } {
  const { value } = arg;
  if (value === undefined || value === null) return { field: "CREATED_AT", direction: "ASC" };
  if (typeof value !== "object" || Array.isArray(value)) throw arg.invalid([], "Expected value to be an object");
  const input = value as Record<string, unknown>;
  const extra = Object.keys(input).find((k) => k !== "field" && k !== "direction");
  if (extra !== undefined) throw arg.invalid([extra], "Field is not defined on IssueOrder");
  const pick = (key: string, allowed: readonly string[]): string => {
    const given = input[key];
    if (given === undefined || given === null) throw arg.invalid([key], "Expected value to not be null");
    if (typeof given !== "string" || !allowed.includes(given)) throw arg.invalid([key], `Expected ${JSON.stringify(given)} to be one of: ${allowed.join(", ")}`);
    return given;
  };
  return { field: pick("field", ORDER_FIELDS), direction: pick("direction", DIRECTIONS) };
}
