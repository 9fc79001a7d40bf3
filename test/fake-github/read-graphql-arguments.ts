/** A field's arguments with variables filled in, and their errors phrased as GitHub phrases them. */
import { GraphqlError } from "./graphql-error.js";
import { resolveGraphqlValue, type GraphqlField, type GraphqlOperation } from "./parse-graphql-operation.js";

/** One root field to resolve, with the operation around it and its variables (defaults applied). */
export interface GraphqlFieldRequest {
  operation: GraphqlOperation;
  field: GraphqlField;
  variables: ReadonlyMap<string, unknown>;
}

export interface GraphqlArgument {
  /** Undefined when the argument (or the variable it names) was not given. */
  value: unknown;
  /** The error for an invalid value at `path` inside the argument (`[]`: the argument itself). */
  invalid(path: readonly (string | number)[], explanation: string): GraphqlError;
}

/**
 * Reads the arguments of `field`, refusing any not in `accepted` (a misspelt or unserved argument
 * must fail, not be ignored).
 */
export function readGraphqlArguments(request: GraphqlFieldRequest, accepted: readonly string[]): (name: string) => GraphqlArgument {
  const { field, operation, variables } = request;
  const locations = [field.location];
  for (const name of field.args.keys()) {
    if (!accepted.includes(name)) throw new GraphqlError(`Field '${field.name}' doesn't accept argument '${name}'`, { locations, extensions: { code: "argumentNotAccepted", name: field.name, argumentName: name } });
  }
  return (name) => {
    const node = field.args.get(name);
    const value = node === undefined ? undefined : resolveGraphqlValue(node, variables);
    const invalid = (path: readonly (string | number)[], explanation: string): GraphqlError => {
      if (node === undefined) return new GraphqlError(`Field '${field.name}' is missing required arguments: ${name}`, { locations });
      const at = path.join(".");
      if (node.kind !== "variable") return new GraphqlError(`Argument '${name}' on Field '${field.name}' has an invalid value${at === "" ? "" : ` at ${at}`}: ${explanation}`, { locations });
      const type = operation.variables.get(node.name)?.type ?? "?";
      return new GraphqlError(`Variable $${node.name} of type ${type} was provided invalid value${at === "" ? "" : ` for ${at}`} (${explanation})`, {
        locations,
        extensions: { value: value ?? null, problems: [{ path, explanation }] },
      });
    };
    return { value, invalid };
  };
}
