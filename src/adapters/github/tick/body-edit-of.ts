import type { BodyEdit } from "./tick-github.js";

/** One issue's body and edit time: a chunk of one, or each issue of a query that failed. */
export const BODY_EDIT_QUERY = "query($owner: String!, $name: String!, $number: Int!) { repository(owner: $owner, name: $name) { issue(number: $number) { body lastEditedAt } } }";
/** Issues per body-edit query: one alias each (`i<n>: issue(number: n)`). */
export const BODY_EDITS_PER_QUERY = 50;
export const bodyEditsQuery = (numbers: readonly number[]): string => `query($owner: String!, $name: String!) { repository(owner: $owner, name: $name) { ${numbers.map((n) => `i${n}: issue(number: ${n}) { body lastEditedAt }`).join(" ")} } }`;
export type EditedIssue = { body: string; lastEditedAt: string | null } | null | undefined;
/** An issue's body and edit time as GraphQL answered them; undefined when they do not make a pair. */
export const bodyEditOf = (issue: EditedIssue): BodyEdit | undefined => {
  if (issue === undefined || issue === null) return undefined;
  const at = issue.lastEditedAt === null ? null : Date.parse(issue.lastEditedAt);
  return at !== null && Number.isNaN(at) ? undefined : { body: issue.body, editedAt: at };
};
