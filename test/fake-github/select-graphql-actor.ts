/**
 * An `Actor` (an issue's or a comment's `author`) as GitHub's GraphQL answers it: a bot is a `Bot`
 * whose login has no `[bot]` suffix (REST `bosun[bot]` is `{__typename: "Bot", login: "bosun"}`),
 * anyone else a `User`.
 */
import type { GraphqlField } from "./parse-graphql-operation.js";
import { selectGraphqlFields } from "./select-graphql-fields.js";

const ACTOR_TYPES = ["Bot", "EnterpriseUserAccount", "Mannequin", "Organization", "User"];
const BOT_SUFFIX = "[bot]";

/** `login` undefined: only checks the selection (an empty page still checks what it would select). */
export function selectGraphqlActor(selection: GraphqlField, login: string | undefined): Record<string, unknown> {
  const bot = login?.endsWith(BOT_SUFFIX) === true;
  const name = bot ? "Bot" : "User";
  const type = { name, interfaces: ["Actor", "Node"], alternatives: ACTOR_TYPES.filter((t) => t !== name) };
  return selectGraphqlFields(selection, type, { login: login === undefined ? null : bot ? login.slice(0, -BOT_SUFFIX.length) : login });
}
