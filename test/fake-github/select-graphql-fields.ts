/** The object a field answers, shaped by its selection set; a field the fake does not serve is an error, never left out. */
import { applyGraphqlTypeConditions, type GraphqlObjectType } from "./apply-graphql-type-conditions.js";
import { GraphqlError, withGraphqlPath } from "./graphql-error.js";
import type { GraphqlField } from "./parse-graphql-operation.js";

/** An object-typed (or list-of-objects) field: answers its own selection (by calling `selectGraphqlFields` again), or null. */
export type GraphqlObjectField = (selection: GraphqlField) => unknown;

/** An object-typed field with arguments: it reads them itself, with `readGraphqlArguments`, which refuses those it does not name. */
export interface GraphqlObjectFieldWithArguments {
  withArguments: GraphqlObjectField;
}

/**
 * `values` are the scalar fields of `type` the fake serves, `objects` its object-typed ones;
 * `__typename` is always there. A field error from an object field gets its response key in front
 * of its path.
 */
export function selectGraphqlFields(
  field: GraphqlField,
  type: string | GraphqlObjectType,
  values: Record<string, unknown>,
  objects: Record<string, GraphqlObjectField | GraphqlObjectFieldWithArguments> = {},
): Record<string, unknown> {
  const objectType = typeof type === "string" ? { name: type } : type;
  const typeName = objectType.name;
  if (field.selections.length === 0) {
    throw new GraphqlError(`Field must have selections (field '${field.name}' returns ${typeName} but has no selections. Did you mean '${field.name} { ... }'?)`, { locations: [field.location] });
  }
  const result: Record<string, unknown> = {};
  for (const selection of applyGraphqlTypeConditions(field.selections, objectType)) {
    const locations = [selection.location];
    const object = Object.hasOwn(objects, selection.name) ? objects[selection.name] : undefined;
    if (selection.name !== "__typename" && !(selection.name in values) && object === undefined) {
      throw new GraphqlError(`Field '${selection.name}' doesn't exist on type '${typeName}' (fake-github serves only ${[...Object.keys(values), ...Object.keys(objects)].join(", ")} on it)`, {
        locations,
        extensions: { code: "undefinedField", typeName, fieldName: selection.name },
      });
    }
    if (object !== undefined) {
      const select = typeof object === "function" ? object : object.withArguments;
      if (typeof object === "function" && selection.args.size > 0) throw new GraphqlError(`Field '${selection.name}' doesn't accept argument '${[...selection.args.keys()][0] ?? ""}'`, { locations });
      result[selection.responseKey] = withGraphqlPath(selection.responseKey, () => select(selection));
      continue;
    }
    if (selection.selections.length > 0 || selection.args.size > 0) throw new GraphqlError(`Selections and arguments can't be made on scalars (field '${selection.name}')`, { locations });
    result[selection.responseKey] = selection.name === "__typename" ? typeName : values[selection.name];
  }
  return result;
}
