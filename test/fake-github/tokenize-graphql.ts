/** GraphQL source text → tokens with line and column (for error locations), as the spec lexes it. */
import { GraphqlError } from "./graphql-error.js";

export interface GraphqlToken {
  kind: "punctuator" | "name" | "number" | "string" | "end";
  /** The source text; for strings, the decoded value. */
  text: string;
  line: number;
  column: number;
}

const PUNCTUATORS = "!$&():=@[]{|}";
const NAME = /[_A-Za-z][_0-9A-Za-z]*/y;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const STRING = /"(?:[^"\\\n\r]|\\(?:["\\/bfnrt]|u[0-9A-Fa-f]{4}))*"/y;

/** Describes a token the way graphql-ruby's parse errors do: `"}" (RCURLY)`, `end of string`. */
export function describeToken(token: GraphqlToken): string {
  return token.kind === "end" ? "end of string" : `${JSON.stringify(token.text)} (${token.kind.toUpperCase()})`;
}

export function syntaxError(token: GraphqlToken): GraphqlError {
  return new GraphqlError(`Parse error on ${describeToken(token)} at [${token.line}, ${token.column}]`, { locations: [{ line: token.line, column: token.column }] });
}

export function tokenizeGraphql(source: string): GraphqlToken[] {
  const tokens: GraphqlToken[] = [];
  let i = 0;
  let line = 1;
  let lineStart = 0;
  const push = (kind: GraphqlToken["kind"], text: string, start: number): void => {
    tokens.push({ kind, text, line, column: start - lineStart + 1 });
  };
  const sticky = (re: RegExp): string | undefined => {
    re.lastIndex = i;
    return re.exec(source)?.[0];
  };
  while (i < source.length) {
    const c = source[i] as string;
    if (c === "\n") {
      i++;
      line++;
      lineStart = i;
    } else if (c === " " || c === "\t" || c === "\r" || c === "," || c === "\ufeff") {
      i++; // Commas are insignificant in GraphQL, like whitespace.
    } else if (c === "#") {
      while (i < source.length && source[i] !== "\n") i++;
    } else if (source.startsWith("...", i)) {
      push("punctuator", "...", i);
      i += 3;
    } else if (PUNCTUATORS.includes(c)) {
      push("punctuator", c, i);
      i++;
    } else if (source.startsWith('"""', i)) {
      const end = source.indexOf('"""', i + 3);
      if (end < 0) throw syntaxError({ kind: "string", text: source.slice(i), line, column: i - lineStart + 1 });
      // Block strings keep their raw text; the fake never needs the spec's indentation stripping.
      push("string", source.slice(i + 3, end).replace(/\\"""/g, '"""'), i);
      for (let j = i; j < end; j++) {
        if (source[j] === "\n") {
          line++;
          lineStart = j + 1;
        }
      }
      i = end + 3;
    } else {
      const name = sticky(NAME);
      const number = name === undefined ? sticky(NUMBER) : undefined;
      const string = name === undefined && number === undefined ? sticky(STRING) : undefined;
      const text = name ?? number ?? string;
      if (text === undefined) throw syntaxError({ kind: "punctuator", text: c, line, column: i - lineStart + 1 });
      // GraphQL's string escapes are JSON's.
      if (string !== undefined) push("string", JSON.parse(string) as string, i);
      else push(name === undefined ? "number" : "name", text, i);
      i += text.length;
    }
  }
  tokens.push({ kind: "end", text: "", line, column: i - lineStart + 1 });
  return tokens;
}
