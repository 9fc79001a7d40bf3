/**
 * GitHub's GraphQL endpoint, as far as Bosun needs: the `updateRefs` mutation (several refs moved
 * atomically), `repository(owner, name)` with its `id` and its `refs` and `issues` connections, and
 * the `pinIssue` mutation. It is not a GraphQL server: the operation is parsed just far enough to
 * dispatch, and anything else answers a GraphQL error, never an empty success. Errors are HTTP 200
 * with `errors`, as on GitHub.
 */
import { applyGraphqlTypeConditions } from "../apply-graphql-type-conditions.js";
import { GraphqlError, withGraphqlPath } from "../graphql-error.js";
import { HttpError } from "../http-error.js";
import { parseGraphqlOperation } from "../parse-graphql-operation.js";
import type { GraphqlFieldRequest } from "../read-graphql-arguments.js";
import { resolvePinIssue } from "../resolve-pin-issue.js";
import { resolveRepository } from "../resolve-repository.js";
import { resolveUpdateRefs } from "../resolve-update-refs.js";
import type { Reply, Route, RouteContext, RouteKind } from "../route.js";
import type { FakeState } from "../state.js";

type Resolver = (state: FakeState, ctx: RouteContext, request: GraphqlFieldRequest) => Record<string, unknown>;

const RESOLVERS: Record<string, Resolver> = { "mutation updateRefs": resolveUpdateRefs, "mutation pinIssue": resolvePinIssue, "query repository": resolveRepository };
const ROOT_TYPES = { query: "Query", mutation: "Mutation", subscription: "Subscription" } as const;
const SERVED = "fake-github serves only Query.repository, Mutation.updateRefs and Mutation.pinIssue";
/** GraphQL has its own rate-limit bucket on GitHub. */
const HEADERS = { "x-ratelimit-resource": "graphql" };

/** Variables as sent: an object, null, or (some clients) a JSON string of one. */
function variablesOf(raw: unknown): Record<string, unknown> {
  if (raw === undefined || raw === null) return {};
  let value = raw;
  if (typeof raw === "string") {
    try {
      value = JSON.parse(raw === "" ? "{}" : raw);
    } catch {
      throw new GraphqlError("Variables are invalid JSON.");
    }
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new GraphqlError("Variables must be an object.");
  return value as Record<string, unknown>;
}

/** The one root field of the request's operation, with the variables it declared (defaults applied). */
function readRequest(body: Record<string, unknown>): GraphqlFieldRequest {
  if (typeof body.query !== "string") throw new GraphqlError("A query attribute must be specified and must be a string.");
  const given = variablesOf(body.variables);
  const operation = parseGraphqlOperation(body.query, typeof body.operationName === "string" ? body.operationName : undefined);
  const variables = new Map<string, unknown>();
  for (const [name, declared] of operation.variables) variables.set(name, name in given ? given[name] : declared.defaultValue);
  const [field, ...more] = applyGraphqlTypeConditions(operation.fields, { name: ROOT_TYPES[operation.type] });
  if (field === undefined || more.length > 0) {
    throw new GraphqlError(`fake-github resolves exactly one root field per operation (${SERVED})`, { locations: operation.fields.map((f) => f.location) });
  }
  return { operation, field, variables };
}

function serveGraphql(state: FakeState, ctx: RouteContext): Reply {
  // The repository is named in the body, so the route table cannot authorize; the resolvers do, per repository.
  if (ctx.identity.kind === "anonymous") {
    throw new HttpError(401, "This endpoint requires you to be authenticated.", { documentation_url: "https://docs.github.com/graphql/guides/forming-calls-with-graphql#authenticating-with-graphql" });
  }
  if (ctx.identity.kind === "app") throw new HttpError(401, "A JSON web token could not be used for this endpoint; use an installation token.");
  let kind: RouteKind = "create";
  try {
    const request = readRequest(ctx.body);
    const { operation, field } = request;
    // A query only reads; a mutation may create (an updateRefs may create refs).
    kind = operation.type === "query" ? "read" : "create";
    const resolver = RESOLVERS[`${operation.type} ${field.name}`];
    if (resolver === undefined) {
      const typeName = ROOT_TYPES[operation.type];
      throw new GraphqlError(`Field '${field.name}' doesn't exist on type '${typeName}' (${SERVED})`, {
        locations: [field.location],
        extensions: { code: "undefinedField", typeName, fieldName: field.name },
      });
    }
    const data = withGraphqlPath(field.responseKey, () => resolver(state, ctx, request));
    return { status: 200, kind, headers: HEADERS, body: { data: { [field.responseKey]: data } } };
  } catch (error) {
    if (error instanceof GraphqlError) return { ...error.reply(HEADERS), kind };
    throw error;
  }
}

export const graphqlRoutes: Route[] = [
  // `create` unless the operation is a query (the reply says): an updateRefs may create refs, which GitHub's secondary limit counts. `access: "none"`:
  // the path names no repository; the resolvers check access to the one in the body.
  { method: "POST", pattern: "/graphql", kind: "create", access: "none", handler: serveGraphql },
];
