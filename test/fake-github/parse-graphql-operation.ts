/**
 * One GraphQL operation, parsed just far enough to dispatch it: its type, its variables' types and
 * defaults, and a tree of fields with arguments and locations. There is no schema here: the endpoint
 * checks the few fields it serves and refuses the rest. Inline fragments (`... on Commit { message }`)
 * are flattened into the fields they hold, each remembering the type conditions around it; fragments
 * by name and directives are refused, so nothing a client asks for is silently dropped.
 */
import { GraphqlError, type GraphqlLocation } from "./graphql-error.js";
import { syntaxError, tokenizeGraphql, type GraphqlToken } from "./tokenize-graphql.js";

export type GraphqlValue =
  | { kind: "variable"; name: string }
  | { kind: "constant"; value: unknown }
  | { kind: "list"; items: GraphqlValue[] }
  | { kind: "object"; fields: Map<string, GraphqlValue> };

/** `... on Type`: the fields inside apply only to an object of that type. */
export interface GraphqlTypeCondition {
  type: string;
  location: GraphqlLocation;
}

export interface GraphqlField {
  /** The key of the field in the response: its alias, else its name. */
  responseKey: string;
  name: string;
  args: Map<string, GraphqlValue>;
  selections: GraphqlField[];
  location: GraphqlLocation;
  /** The type conditions of the inline fragments the field sits in, outermost first; all must hold. */
  on: GraphqlTypeCondition[];
}

export interface GraphqlVariable {
  /** The declared type as written, e.g. `UpdateRefsInput!`. */
  type: string;
  defaultValue?: unknown;
}

export interface GraphqlOperation {
  type: "query" | "mutation" | "subscription";
  name: string | undefined;
  variables: Map<string, GraphqlVariable>;
  fields: GraphqlField[];
}

const OPERATION_TYPES = new Set(["query", "mutation", "subscription"]);

/** The operation to run: the only one in the document, or the one named `operationName`. */
export function parseGraphqlOperation(source: string, operationName?: string): GraphqlOperation {
  const tokens = tokenizeGraphql(source);
  let pos = 0;
  const peek = (): GraphqlToken => tokens[Math.min(pos, tokens.length - 1)] as GraphqlToken;
  const next = (): GraphqlToken => {
    const token = peek();
    pos++;
    return token;
  };
  const at = (text: string): boolean => peek().kind === "punctuator" && peek().text === text;
  const expect = (text: string): void => {
    const token = next();
    if (token.kind !== "punctuator" || token.text !== text) throw syntaxError(token);
  };
  const name = (): GraphqlToken => {
    const token = next();
    if (token.kind !== "name") throw syntaxError(token);
    return token;
  };
  const unsupported = (what: string): GraphqlError => {
    const { line, column } = peek();
    return new GraphqlError(`fake-github does not support ${what} in GraphQL documents`, { locations: [{ line, column }] });
  };
  const noDirectives = (): void => {
    if (at("@")) throw unsupported("directives");
  };
  const namedFragment = (fragmentName: string): GraphqlError => {
    const { line, column } = peek();
    return new GraphqlError(`fake-github does not support fragments by name ("...${fragmentName}") in GraphQL documents; write the fields inline, or in an inline fragment "... on Type { }"`, { locations: [{ line, column }] });
  };

  const value = (constant: boolean): GraphqlValue => {
    const token = next();
    if (token.kind === "punctuator" && token.text === "$" && !constant) return { kind: "variable", name: name().text };
    if (token.kind === "punctuator" && token.text === "[") {
      const items: GraphqlValue[] = [];
      while (!at("]")) items.push(value(constant));
      next();
      return { kind: "list", items };
    }
    if (token.kind === "punctuator" && token.text === "{") {
      const fields = new Map<string, GraphqlValue>();
      while (!at("}")) {
        const key = name().text;
        expect(":");
        fields.set(key, value(constant));
      }
      next();
      return { kind: "object", fields };
    }
    if (token.kind === "string") return { kind: "constant", value: token.text };
    if (token.kind === "number") return { kind: "constant", value: Number(token.text) };
    if (token.kind === "name") {
      const literal: Record<string, unknown> = { true: true, false: false, null: null };
      return { kind: "constant", value: token.text in literal ? literal[token.text] : token.text }; // an enum value reads as its name
    }
    throw syntaxError(token);
  };

  /** The fields of a selection set; `on` are the type conditions of the inline fragments it is in. */
  const selectionSet = (on: GraphqlTypeCondition[]): GraphqlField[] => {
    expect("{");
    const fields: GraphqlField[] = [];
    do {
      if (at("...")) {
        const spread = next();
        let inner = on;
        if (peek().kind === "name") {
          if (peek().text !== "on") throw namedFragment(peek().text);
          next();
          inner = [...on, { type: name().text, location: { line: spread.line, column: spread.column } }];
        }
        noDirectives();
        fields.push(...selectionSet(inner));
        continue;
      }
      const first = name();
      let fieldName = first.text;
      if (at(":")) {
        next();
        fieldName = name().text;
      }
      const args = new Map<string, GraphqlValue>();
      if (at("(")) {
        next();
        do {
          const key = name().text;
          expect(":");
          args.set(key, value(false));
        } while (!at(")"));
        next();
      }
      noDirectives();
      const selections = at("{") ? selectionSet([]) : [];
      fields.push({ responseKey: first.text, name: fieldName, args, selections, location: { line: first.line, column: first.column }, on });
    } while (!at("}"));
    next();
    return fields;
  };

  const type = (): string => {
    let text: string;
    if (at("[")) {
      next();
      text = `[${type()}]`;
      expect("]");
    } else {
      text = name().text;
    }
    if (at("!")) {
      next();
      text += "!";
    }
    return text;
  };

  const operations: GraphqlOperation[] = [];
  while (peek().kind !== "end") {
    if (at("{")) {
      operations.push({ type: "query", name: undefined, variables: new Map(), fields: selectionSet([]) });
      continue;
    }
    const keyword = name();
    if (keyword.text === "fragment") throw namedFragment(peek().kind === "name" ? peek().text : "");
    if (!OPERATION_TYPES.has(keyword.text)) throw syntaxError(keyword);
    const opName = peek().kind === "name" ? next().text : undefined;
    const variables = new Map<string, GraphqlVariable>();
    if (at("(")) {
      next();
      do {
        expect("$");
        const variable = name().text;
        expect(":");
        const declared: GraphqlVariable = { type: type() };
        if (at("=")) {
          next();
          declared.defaultValue = resolveGraphqlValue(value(true), new Map());
        }
        variables.set(variable, declared);
      } while (!at(")"));
      next();
    }
    noDirectives();
    operations.push({ type: keyword.text as GraphqlOperation["type"], name: opName, variables, fields: selectionSet([]) });
  }
  if (operations.length === 0) throw new GraphqlError("No operations in query document");
  if (operationName !== undefined && operationName !== null && operationName !== "") {
    const named = operations.find((o) => o.name === operationName);
    if (named === undefined) throw new GraphqlError(`No operation named "${operationName}"`);
    return named;
  }
  if (operations.length > 1) throw new GraphqlError("An operation name is required");
  return operations[0] as GraphqlOperation;
}

/** A value with its variables filled in; a variable the operation did not declare is an error. */
export function resolveGraphqlValue(value: GraphqlValue, variables: ReadonlyMap<string, unknown>): unknown {
  switch (value.kind) {
    case "constant":
      return value.value;
    case "list":
      return value.items.map((item) => resolveGraphqlValue(item, variables));
    case "object":
      return Object.fromEntries([...value.fields].map(([key, item]) => [key, resolveGraphqlValue(item, variables)]));
    case "variable":
      if (!variables.has(value.name)) throw new GraphqlError(`Variable $${value.name} is used but not declared`);
      return variables.get(value.name);
  }
}
