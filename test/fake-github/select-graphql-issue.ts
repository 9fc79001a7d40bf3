/**
 * One `Issue` node: its scalars, `author`, `labels(first/last)` (in the order the labels were
 * created, GitHub's default CREATED_AT ASC) and `comments(first/last)` (oldest first, so
 * `comments(last: 2)` is the newest two, oldest of them first; `totalCount` counts them all);
 * `lastEditedAt` and `editor` follow body edits only (null until the body is first edited).
 */
import { isoTime } from "./clock.js";
import type { GraphqlField } from "./parse-graphql-operation.js";
import { readGraphqlArguments, type GraphqlFieldRequest } from "./read-graphql-arguments.js";
import { selectGraphqlActor } from "./select-graphql-actor.js";
import { CONNECTION_ARGUMENTS, selectGraphqlConnection } from "./select-graphql-connection.js";
import { selectGraphqlFields } from "./select-graphql-fields.js";
import type { CommentRecord, IssueRecord, RepoState } from "./state.js";
import { issueLabels } from "./to-json-issue.js";
import { nodeId } from "./to-json-user-repo.js";

/** `issue` undefined: only checks the selection (an empty page still checks what it would select). */
export function selectGraphqlIssue(request: GraphqlFieldRequest, repo: RepoState | undefined, field: GraphqlField, issue: IssueRecord | undefined, comments: readonly CommentRecord[]): Record<string, unknown> {
  const argumentsOf = (selection: GraphqlField) => readGraphqlArguments({ ...request, field: selection }, CONNECTION_ARGUMENTS);
  const labels = (selection: GraphqlField): Record<string, unknown> =>
    selectGraphqlConnection(selection, argumentsOf(selection), {
      nodeType: "Label",
      items: repo === undefined || issue === undefined ? [] : issueLabels(repo, issue),
      sortKey: (label) => [label.id],
      node: (s, label) => selectGraphqlFields(s, "Label", { id: label === undefined ? null : nodeId("Label", label.id), name: label?.name ?? null, color: label?.color ?? null, description: label?.description ?? null }),
    });
  const issueComments = (selection: GraphqlField): Record<string, unknown> =>
    selectGraphqlConnection(selection, argumentsOf(selection), {
      nodeType: "IssueComment",
      items: comments,
      sortKey: (comment) => [comment.createdAt, comment.id],
      node: (s, comment) =>
        selectGraphqlFields(
          s,
          "IssueComment",
          {
            id: comment === undefined ? null : nodeId("IssueComment", comment.id),
            // The REST comment id.
            databaseId: comment?.id ?? null,
            body: comment?.body ?? null,
            createdAt: comment === undefined ? null : isoTime(comment.createdAt),
            updatedAt: comment === undefined ? null : isoTime(comment.updatedAt),
          },
          { author: (a) => selectGraphqlActor(a, comment?.user) },
        ),
    });
  const values = {
    id: issue === undefined ? null : nodeId("Issue", issue.id),
    databaseId: issue?.id ?? null,
    number: issue?.number ?? null,
    title: issue?.title ?? null,
    body: issue === undefined ? null : (issue.body ?? ""),
    state: issue === undefined ? null : issue.state.toUpperCase(),
    createdAt: issue === undefined ? null : isoTime(issue.createdAt),
    updatedAt: issue === undefined ? null : isoTime(issue.updatedAt),
    closedAt: issue?.closedAt === undefined || issue.closedAt === null ? null : isoTime(issue.closedAt),
    // The body's last edit (the `Comment` interface), at whole seconds; null while never edited.
    lastEditedAt: issue?.lastEditedAt === undefined || issue.lastEditedAt === null ? null : isoTime(issue.lastEditedAt),
  };
  return selectGraphqlFields(field, "Issue", values, {
    author: (a) => selectGraphqlActor(a, issue?.user),
    editor: (a) => {
      const selected = selectGraphqlActor(a, issue?.editor ?? undefined);
      return issue?.editor === undefined || issue.editor === null ? null : selected;
    },
    labels: { withArguments: labels },
    comments: { withArguments: issueComments },
  });
}
