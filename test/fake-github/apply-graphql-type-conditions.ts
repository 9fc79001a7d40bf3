/**
 * Which of a selection set's fields apply to one object, after its inline fragments' type
 * conditions; fields that share a response key are merged into one, as GraphQL merges them.
 */
import { GraphqlError } from "./graphql-error.js";
import type { GraphqlField, GraphqlValue } from "./parse-graphql-operation.js";

/** The type of the object being selected, as inline fragments see it. */
export interface GraphqlObjectType {
  name: string;
  /** Interfaces it implements: `... on GitObject` applies to a Commit. */
  interfaces?: readonly string[];
  /**
   * The other types the field could have answered (a `target` is a Commit, Tree, Blob or Tag): a
   * fragment on one of them does not apply. Its fields go unchecked, since the fake knows only the
   * fields of the types it answers with.
   */
  alternatives?: readonly string[];
}

export function applyGraphqlTypeConditions(selections: readonly GraphqlField[], type: GraphqlObjectType): GraphqlField[] {
  const matches = new Set([type.name, ...(type.interfaces ?? [])]);
  const known = new Set([...matches, ...(type.alternatives ?? [])]);
  const byKey = new Map<string, GraphqlField>();
  for (const selection of selections) {
    const unknown = selection.on.find((condition) => !known.has(condition.type));
    if (unknown !== undefined) {
      // GitHub would also say "No such type" for a misspelt type; without a schema the fake cannot tell the two apart.
      throw new GraphqlError(`Fragment on ${unknown.type} can't be spread inside ${type.name} (fake-github knows ${[...known].join(", ")} here)`, {
        locations: [unknown.location],
        extensions: { code: "cannotSpreadFragment", typeName: type.name, fragmentTypeName: unknown.type },
      });
    }
    if (!selection.on.every((condition) => matches.has(condition.type))) continue;
    const earlier = byKey.get(selection.responseKey);
    if (earlier === undefined) {
      byKey.set(selection.responseKey, selection);
      continue;
    }
    if (earlier.name !== selection.name || argumentsText(earlier.args) !== argumentsText(selection.args)) {
      throw new GraphqlError(`Field '${selection.responseKey}' has a field conflict: ${earlier.name} or ${selection.name}? (they have different names or arguments)`, { locations: [earlier.location, selection.location] });
    }
    byKey.set(selection.responseKey, { ...earlier, selections: [...earlier.selections, ...selection.selections] });
  }
  return [...byKey.values()];
}

/** Arguments as comparable text (object values are Maps, which JSON would print as `{}`). */
function argumentsText(args: ReadonlyMap<string, GraphqlValue>): string {
  return JSON.stringify([...args], (_key, value: unknown) => (value instanceof Map ? [...(value as Map<unknown, unknown>)] : value));
}
