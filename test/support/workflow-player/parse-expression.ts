/**
 * The syntax of GitHub Actions expressions (what goes inside `${{ }}`), parsed into a tree:
 * literals (null, true, false, numbers, 'strings' with '' for a quote), context names, property
 * access (`a.b`, `a['b']`), function calls, `!`, `<`, `<=`, `>`, `>=`, `==`, `!=`, `&&`, `||` and
 * parentheses. Anything else (`a.*`, `+`, double quotes...) is an error naming the position.
 * https://docs.github.com/en/actions/reference/workflows-and-actions/expressions
 */

export type Expr =
  | { kind: "literal"; value: null | boolean | number | string }
  | { kind: "name"; name: string }
  | { kind: "member"; object: Expr; property: Expr }
  | { kind: "call"; name: string; args: Expr[] }
  | { kind: "not"; operand: Expr }
  | { kind: "binary"; op: "==" | "!=" | "<" | "<=" | ">" | ">=" | "&&" | "||"; left: Expr; right: Expr };

type Token =
  | { kind: "num"; value: number; at: number }
  | { kind: "str"; value: string; at: number }
  | { kind: "ident"; value: string; at: number }
  | { kind: "punct"; value: string; at: number };

export class ExpressionError extends Error {
  constructor(message: string, readonly source: string) {
    super(`${message} in expression \`${source}\``);
    this.name = "ExpressionError";
  }
}

const PUNCT = ["==", "!=", "<=", ">=", "&&", "||", "<", ">", "!", "(", ")", "[", "]", ".", ","];

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const c = source[i] as string;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === "'") {
      let value = "";
      let j = i + 1;
      for (;;) {
        if (j >= source.length) throw new ExpressionError(`unterminated string at ${i}`, source);
        if (source[j] === "'") {
          if (source[j + 1] === "'") {
            value += "'";
            j += 2;
            continue;
          }
          break;
        }
        value += source[j];
        j++;
      }
      tokens.push({ kind: "str", value, at: i });
      i = j + 1;
      continue;
    }
    const number = /^(?:0x[0-9a-fA-F]+|-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)/.exec(source.slice(i));
    if (number !== null && (c !== "-" || tokens.length === 0 || tokens.at(-1)?.kind === "punct")) {
      tokens.push({ kind: "num", value: Number(number[0]), at: i });
      i += number[0].length;
      continue;
    }
    const ident = /^[A-Za-z_][A-Za-z0-9_-]*/.exec(source.slice(i));
    if (ident !== null) {
      tokens.push({ kind: "ident", value: ident[0], at: i });
      i += ident[0].length;
      continue;
    }
    const punct = PUNCT.find((p) => source.startsWith(p, i));
    if (punct === undefined) throw new ExpressionError(`unexpected character '${c}' at ${i}`, source);
    tokens.push({ kind: "punct", value: punct, at: i });
    i += punct.length;
  }
  return tokens;
}

/** Parses one expression; throws `ExpressionError` on anything GitHub's grammar does not allow. */
export function parseExpression(source: string): Expr {
  const tokens = tokenize(source);
  let pos = 0;
  const peek = (): Token | undefined => tokens[pos];
  const isPunct = (value: string): boolean => peek()?.kind === "punct" && peek()?.value === value;
  const expect = (value: string): void => {
    if (!isPunct(value)) throw new ExpressionError(`expected '${value}' at ${peek()?.at ?? source.length}`, source);
    pos++;
  };

  const primary = (): Expr => {
    const t = peek();
    if (t === undefined) throw new ExpressionError("unexpected end", source);
    pos++;
    if (t.kind === "num") return { kind: "literal", value: t.value };
    if (t.kind === "str") return { kind: "literal", value: t.value };
    if (t.kind === "punct" && t.value === "(") {
      const inner = or();
      expect(")");
      return inner;
    }
    if (t.kind === "ident") {
      if (t.value === "null") return { kind: "literal", value: null };
      if (t.value === "true") return { kind: "literal", value: true };
      if (t.value === "false") return { kind: "literal", value: false };
      if (isPunct("(")) {
        pos++;
        const args: Expr[] = [];
        if (!isPunct(")")) {
          args.push(or());
          while (isPunct(",")) {
            pos++;
            args.push(or());
          }
        }
        expect(")");
        return { kind: "call", name: t.value.toLowerCase(), args };
      }
      return { kind: "name", name: t.value };
    }
    throw new ExpressionError(`unexpected '${t.value}' at ${t.at}`, source);
  };

  const postfix = (): Expr => {
    let e = primary();
    for (;;) {
      if (isPunct(".")) {
        pos++;
        const t = peek();
        if (t?.kind !== "ident") throw new ExpressionError(`expected a property name at ${t?.at ?? source.length}`, source);
        pos++;
        e = { kind: "member", object: e, property: { kind: "literal", value: t.value } };
      } else if (isPunct("[")) {
        pos++;
        const property = or();
        expect("]");
        e = { kind: "member", object: e, property };
      } else return e;
    }
  };

  const unary = (): Expr => {
    if (isPunct("!")) {
      pos++;
      return { kind: "not", operand: unary() };
    }
    return postfix();
  };

  const binary = (next: () => Expr, ops: ReadonlyArray<"==" | "!=" | "<" | "<=" | ">" | ">=" | "&&" | "||">) => (): Expr => {
    let left = next();
    for (;;) {
      const t = peek();
      const op = t?.kind === "punct" ? ops.find((o) => o === t.value) : undefined;
      if (op === undefined) return left;
      pos++;
      left = { kind: "binary", op, left, right: next() };
    }
  };
  const comparison = binary(unary, ["<", "<=", ">", ">="]);
  const equality = binary(comparison, ["==", "!="]);
  const and = binary(equality, ["&&"]);
  const or: () => Expr = binary(and, ["||"]);

  const tree = or();
  if (pos < tokens.length) throw new ExpressionError(`unexpected '${tokens[pos]?.value ?? ""}' at ${tokens[pos]?.at ?? 0}`, source);
  return tree;
}
