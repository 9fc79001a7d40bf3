/**
 * `updateRefs(input: {repositoryId, refUpdates, clientMutationId})`: several refs moved atomically.
 * Failures are field errors typed as GitHub types them: NOT_FOUND for a repository id the caller
 * cannot see, FORBIDDEN without write access, UNPROCESSABLE when any update is refused (then no ref
 * changed).
 */
import { applyRefUpdates, refUpdateProblems, type RefUpdate } from "./apply-ref-updates.js";
import { hasPermission, scopeAllows } from "./authenticate.js";
import { emitRefChange } from "./emit-ref-change.js";
import { recordRefActivity } from "./record-ref-activity.js";
import { GraphqlError } from "./graphql-error.js";
import { readGraphqlArguments, type GraphqlArgument, type GraphqlFieldRequest } from "./read-graphql-arguments.js";
import type { RouteContext } from "./route.js";
import { selectGraphqlFields } from "./select-graphql-fields.js";
import type { FakeState } from "./state.js";
import { nodeId } from "./to-json-user-repo.js";

interface UpdateRefsInput {
  repositoryId: string;
  refUpdates: RefUpdate[];
  clientMutationId: string | null;
}

const INPUT_FIELDS = ["repositoryId", "refUpdates", "clientMutationId"];
const REF_UPDATE_FIELDS = ["name", "beforeOid", "afterOid", "force"];

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Coerces the input as GraphQL would, so a malformed one fails before anything is looked at. */
function readInput(arg: GraphqlArgument): UpdateRefsInput {
  const input = arg.value;
  if (!isObject(input)) throw arg.invalid([], input === undefined || input === null ? "Expected value to not be null" : "Expected value to be an object");
  const unknown = (fields: Record<string, unknown>, accepted: string[], path: (string | number)[], type: string): void => {
    const extra = Object.keys(fields).find((k) => !accepted.includes(k));
    if (extra !== undefined) throw arg.invalid([...path, extra], `Field is not defined on ${type}`);
  };
  const string = (value: unknown, path: (string | number)[], type: string): string => {
    if (value === undefined || value === null) throw arg.invalid(path, "Expected value to not be null");
    if (typeof value !== "string") throw arg.invalid(path, `Could not coerce value ${JSON.stringify(value)} to ${type}`);
    return value;
  };
  const oid = (value: unknown, path: (string | number)[]): string => {
    const text = string(value, path, "GitObjectID");
    if (!/^[0-9a-f]{40}$/i.test(text)) throw arg.invalid(path, `Could not coerce value ${JSON.stringify(value)} to GitObjectID`);
    return text.toLowerCase();
  };
  unknown(input, INPUT_FIELDS, [], "UpdateRefsInput");
  const repositoryId = typeof input.repositoryId === "number" ? String(input.repositoryId) : string(input.repositoryId, ["repositoryId"], "ID");
  if (input.refUpdates === undefined || input.refUpdates === null) throw arg.invalid(["refUpdates"], "Expected value to not be null");
  // GraphQL coerces a single value where a list is expected into a list of one.
  const list: unknown[] = Array.isArray(input.refUpdates) ? input.refUpdates : [input.refUpdates];
  const refUpdates = list.map((item, i): RefUpdate => {
    const path = ["refUpdates", i];
    if (!isObject(item)) throw arg.invalid(path, "Expected value to be an object");
    unknown(item, REF_UPDATE_FIELDS, path, "RefUpdate");
    if (item.force !== undefined && item.force !== null && typeof item.force !== "boolean") throw arg.invalid([...path, "force"], `Could not coerce value ${JSON.stringify(item.force)} to Boolean`);
    return {
      name: string(item.name, [...path, "name"], "GitRefname"),
      beforeOid: item.beforeOid === undefined || item.beforeOid === null ? null : oid(item.beforeOid, [...path, "beforeOid"]),
      afterOid: oid(item.afterOid, [...path, "afterOid"]),
      force: item.force === true,
    };
  });
  const clientMutationId = input.clientMutationId === undefined || input.clientMutationId === null ? null : string(input.clientMutationId, ["clientMutationId"], "String");
  return { repositoryId, refUpdates, clientMutationId };
}

export function resolveUpdateRefs(state: FakeState, ctx: RouteContext, request: GraphqlFieldRequest): Record<string, unknown> {
  const { field } = request;
  const input = readInput(readGraphqlArguments(request, ["input"])("input"));
  // The selection is checked before anything changes: a bad document must not half-apply.
  const payload = selectGraphqlFields(field, "UpdateRefsPayload", { clientMutationId: input.clientMutationId });
  const fail = (type: string, message: string): GraphqlError => new GraphqlError(message, { type, path: [], locations: [field.location] });
  const repo = [...state.repos.values()].find((r) => nodeId("Repository", r.id) === input.repositoryId);
  // As in REST, a private repository is invisible (not forbidden) to those who cannot read it.
  if (repo === undefined || !hasPermission(repo, ctx.login, "read")) throw fail("NOT_FOUND", `Could not resolve to a node with the global id of '${input.repositoryId}'`);
  if (!hasPermission(repo, ctx.login, "write") || !scopeAllows(ctx.identity, "contents", "write")) throw fail("FORBIDDEN", ctx.identity.kind === "bot" ? "Resource not accessible by integration" : "Resource not accessible by personal access token");
  const problems = refUpdateProblems(repo, input.refUpdates);
  if (problems.length > 0) throw fail("UNPROCESSABLE", `No ref was updated: ${problems.join("; ")}`);
  ctx.beforeWrite(repo);
  for (const change of applyRefUpdates(repo, input.refUpdates)) {
    emitRefChange(state, ctx, repo, change);
    recordRefActivity(state, repo, change, ctx.login);
  }
  return payload;
}
