/**
 * `Repository.refs(refPrefix, first, after, last, before)`: the refs under a prefix, as GitHub
 * answers them. The prefix must end with `/`; a ref's `name` is the part after it (`12` for
 * `refs/bosun/claims/12` under `refs/bosun/claims/`) and `prefix` echoes it; refs come in
 * alphabetical order of name (GitHub's default, ALPHABETICAL ASC). `target` is the commit, with
 * `... on Commit { message }` for its message, and `signature` (null when unsigned), `author` and
 * `committer` (`GitActor`: name, email, date) so a reader can tell who GitHub signed it for.
 */
import { GraphqlError } from "./graphql-error.js";
import type { GraphqlField } from "./parse-graphql-operation.js";
import { readGraphqlArguments, type GraphqlFieldRequest } from "./read-graphql-arguments.js";
import { CONNECTION_ARGUMENTS, selectGraphqlConnection } from "./select-graphql-connection.js";
import { selectGraphqlFields } from "./select-graphql-fields.js";
import type { RepoState } from "./state.js";

/** A Commit as inline fragments see it; the fake's refs only ever point at commits. */
const COMMIT_TYPE = { name: "Commit", interfaces: ["GitObject", "Node"], alternatives: ["Blob", "Tag", "Tree"] };

/** `repo` undefined (not found, or not readable): no refs, but the selection is still checked. */
export function selectRepositoryRefs(request: GraphqlFieldRequest, repo: RepoState | undefined, field: GraphqlField): Record<string, unknown> {
  const arg = readGraphqlArguments({ ...request, field }, ["refPrefix", ...CONNECTION_ARGUMENTS]);
  const refPrefix = arg("refPrefix");
  if (refPrefix.value === undefined || refPrefix.value === null) throw refPrefix.invalid([], "Expected value to not be null");
  if (typeof refPrefix.value !== "string") throw refPrefix.invalid([], `Could not coerce value ${JSON.stringify(refPrefix.value)} to String`);
  const prefix = refPrefix.value;
  if (!prefix.endsWith("/")) throw new GraphqlError(`refPrefix must end with '/' (got '${prefix}')`, { path: [], locations: [field.location] });
  const refs = [...(repo?.refs ?? [])].filter(([ref]) => ref.startsWith(prefix)).map(([ref, sha]) => ({ name: ref.slice(prefix.length), sha }));
  return selectGraphqlConnection(field, arg, {
    nodeType: "Ref",
    items: refs,
    sortKey: (ref) => [ref.name],
    node: (selection, ref) =>
      selectGraphqlFields(selection, "Ref", { name: ref?.name ?? null, prefix }, { target: (target) => selectTarget(target, repo, ref?.sha) }),
  });
}

function selectTarget(field: GraphqlField, repo: RepoState | undefined, sha: string | undefined): Record<string, unknown> | null {
  const commit = sha === undefined ? undefined : repo?.commits.get(sha);
  // A ref at an object the fake does not hold has no target (GitHub's `target` is nullable); an empty page only checks the selection.
  if (sha !== undefined && commit === undefined) return null;
  return selectGraphqlFields(
    field,
    COMMIT_TYPE,
    {
      oid: commit?.sha ?? null,
      abbreviatedOid: commit?.sha.slice(0, 7) ?? null,
      message: commit?.message ?? null,
      authoredDate: commit?.author.date ?? null,
      committedDate: commit?.committer.date ?? null,
    },
    {
      author: (f) => (commit === undefined ? null : selectGitActor(f, commit.author)),
      committer: (f) => (commit === undefined ? null : selectGitActor(f, commit.committer)),
      // GitHub answers null for an unsigned commit; a signed one is a GpgSignature (an App's API
      // commits are signed by GitHub itself: wasSignedByGitHub).
      signature: (f) =>
        commit?.signedFor === undefined
          ? null
          : selectGraphqlFields(f, { name: "GpgSignature", interfaces: ["GitSignature"] }, { isValid: true, state: "VALID", wasSignedByGitHub: true, email: "noreply@github.com" }),
    },
  );
}

/** A commit's author or committer (`GitActor`): name, email and date as written. */
function selectGitActor(field: GraphqlField, who: { name: string; email: string; date: string }): Record<string, unknown> {
  return selectGraphqlFields(field, "GitActor", { name: who.name, email: who.email, date: who.date });
}
