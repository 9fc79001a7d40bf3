/**
 * `repository(owner, name)`: its `id` (the node id `updateRefs` takes), and the `refs` and `issues`
 * connections a client reads to fill its caches in one request. Reading needs read access only.
 */
import { hasPermission } from "./authenticate.js";
import { GraphqlError } from "./graphql-error.js";
import { readGraphqlArguments, type GraphqlArgument, type GraphqlFieldRequest } from "./read-graphql-arguments.js";
import type { RouteContext } from "./route.js";
import { selectGraphqlFields } from "./select-graphql-fields.js";
import { selectRepositoryIssues } from "./select-repository-issues.js";
import { selectRepositoryRefs } from "./select-repository-refs.js";
import { repoKey, type FakeState } from "./state.js";
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
    },
  );
  if (repo === undefined) {
    throw new GraphqlError(`Could not resolve to a Repository with the name '${owner}/${name}'.`, { type: "NOT_FOUND", path: [], locations: [field.location] });
  }
  return selected;
}
