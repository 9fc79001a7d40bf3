/**
 * `repository(owner, name)`: its `id` (the node id `updateRefs` takes), the `refs` and `issues`
 * connections a client reads to fill its caches in one request, and one `issue(number)`. Reading
 * needs read access only.
 */
import { hasPermission } from "./authenticate.js";
import { GraphqlError } from "./graphql-error.js";
import { readGraphqlArguments, type GraphqlArgument, type GraphqlFieldRequest } from "./read-graphql-arguments.js";
import type { RouteContext } from "./route.js";
import { selectGraphqlFields } from "./select-graphql-fields.js";
import { selectGraphqlIssue } from "./select-graphql-issue.js";
import { selectRepositoryIssues } from "./select-repository-issues.js";
import { selectRepositoryRefs } from "./select-repository-refs.js";
import { repoKey, type FakeState, type RepoState } from "./state.js";
import { nodeId } from "./to-json-user-repo.js";

function requiredString(arg: GraphqlArgument): string {
  if (arg.value === undefined || arg.value === null) throw arg.invalid([], "Expected value to not be null");
  if (typeof arg.value !== "string") throw arg.invalid([], `Could not coerce value ${JSON.stringify(arg.value)} to String`);
  return arg.value;
}

export function resolveRepository(state: FakeState, ctx: RouteContext, request: GraphqlFieldRequest): Record<string, unknown> {
  const { field } = request;
  const arg = readGraphqlArguments(request, ["owner", "name", "followRenames"]);
  const owner = requiredString(arg("owner"));
  const name = requiredString(arg("name"));
  const followRenames = arg("followRenames");
  if (followRenames.value !== undefined && followRenames.value !== null && typeof followRenames.value !== "boolean") {
    throw followRenames.invalid([], `Could not coerce value ${JSON.stringify(followRenames.value)} to Boolean`);
  }
  const found = state.repos.get(repoKey(owner, name));
  // A private repository the caller cannot read does not exist for it, as in REST.
  const repo = found !== undefined && hasPermission(found, ctx.login, "read") ? found : undefined;
  // Without a repository the selection is still checked (against empty connections): a bad document fails as a document.
  const selected = selectGraphqlFields(
    field,
    "Repository",
    { id: repo === undefined ? null : nodeId("Repository", repo.id) },
    {
      refs: { withArguments: (selection) => selectRepositoryRefs(request, repo, selection) },
      issues: { withArguments: (selection) => selectRepositoryIssues(request, repo, selection) },
      issue: { withArguments: (selection) => selectRepositoryIssue(request, repo, selection) },
    },
  );
  if (repo === undefined) {
    throw new GraphqlError(`Could not resolve to a Repository with the name '${owner}/${name}'.`, { type: "NOT_FOUND", path: [], locations: [field.location] });
  }
  return selected;
}

/**
 * `repository.issue(number)`: the issue, or — for a number that is no issue, or a pull request's —
 * a `NOT_FOUND` error on the field, as GitHub answers (`Could not resolve to an Issue with the number of N.`).
 */
function selectRepositoryIssue(request: GraphqlFieldRequest, repo: RepoState | undefined, field: GraphqlFieldRequest["field"]): Record<string, unknown> {
  const arg = readGraphqlArguments({ ...request, field }, ["number"])("number");
  if (arg.value === undefined || arg.value === null) throw arg.invalid([], "Expected value to not be null");
  if (typeof arg.value !== "number" || !Number.isSafeInteger(arg.value)) throw arg.invalid([], `Could not coerce value ${JSON.stringify(arg.value)} to Int`);
  const found = repo?.issues.get(arg.value);
  const issue = found?.isPull === false ? found : undefined;
  const comments = repo === undefined || issue === undefined ? [] : [...repo.comments.values()].filter((c) => c.issueNumber === issue.number);
  // The selection is checked even when nothing is found: a bad document fails as a document.
  const selected = selectGraphqlIssue(request, repo, field, issue, comments);
  if (repo !== undefined && issue === undefined) throw new GraphqlError(`Could not resolve to an Issue with the number of ${arg.value}.`, { type: "NOT_FOUND", path: [], locations: [field.location] });
  return selected;
}
