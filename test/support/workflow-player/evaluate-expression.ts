/**
 * Evaluates a parsed expression against the run's contexts, with GitHub's functions: contains,
 * startsWith, endsWith, format, join, toJSON, fromJSON and the status checks success(), failure(),
 * always(), cancelled(). A name that is no context, an unknown function or a wrong argument count is
 * an error; a missing property is null, as on GitHub. Property names match ignoring case.
 */
import { ExpressionError, parseExpression, type Expr } from "./parse-expression.js";
import { compare, looseEquals, toNumber, toText, toValue, truthy, type Value } from "./expression-values.js";

/** What `success()` and friends answer where the expression is evaluated (a job's `if`, a step's). */
export interface StatusFacts {
  /** Everything before succeeded (the needed jobs, or the job's earlier steps). */
  readonly success: boolean;
  /** Something before failed. */
  readonly failure: boolean;
  readonly cancelled: boolean;
}

export interface ExpressionScope {
  /** Contexts by name: github, inputs, secrets, needs, steps, runner, env, vars, job... */
  readonly contexts: Readonly<Record<string, Value>>;
  readonly status?: StatusFacts;
}

function member(object: Value, key: Value): Value {
  if (object === null || typeof object !== "object") return null;
  if (Array.isArray(object)) {
    const index = toNumber(key);
    return Number.isInteger(index) ? (object[index] ?? null) : null;
  }
  const name = toText(key);
  if (Object.hasOwn(object, name)) return object[name] ?? null;
  const found = Object.keys(object).find((k) => k.toLowerCase() === name.toLowerCase());
  return found === undefined ? null : (object[found] ?? null);
}

function format(source: string, template: string, args: Value[]): string {
  return template.replace(/\{\{|\}\}|\{(\d+)\}|\{|\}/g, (m, index: string | undefined) => {
    if (m === "{{") return "{";
    if (m === "}}") return "}";
    if (index === undefined) throw new ExpressionError(`format: unbalanced brace in '${template}'`, source);
    const i = Number(index);
    if (i >= args.length) throw new ExpressionError(`format: no argument {${i}} for '${template}'`, source);
    return toText(args[i] ?? null);
  });
}

const ARITY: Record<string, [number, number]> = {
  contains: [2, 2],
  startswith: [2, 2],
  endswith: [2, 2],
  format: [1, Number.POSITIVE_INFINITY],
  join: [1, 2],
  tojson: [1, 1],
  fromjson: [1, 1],
  success: [0, 0],
  failure: [0, 0],
  always: [0, 0],
  cancelled: [0, 0],
};

/** True when the expression calls a status function (then `if` is not wrapped in `success() && ...`). */
export function usesStatusFunction(expr: Expr): boolean {
  switch (expr.kind) {
    case "call":
      return ["success", "failure", "always", "cancelled"].includes(expr.name) || expr.args.some(usesStatusFunction);
    case "member":
      return usesStatusFunction(expr.object) || usesStatusFunction(expr.property);
    case "not":
      return usesStatusFunction(expr.operand);
    case "binary":
      return usesStatusFunction(expr.left) || usesStatusFunction(expr.right);
    default:
      return false;
  }
}

/** The value of `expr` in `scope`. */
export function evaluate(expr: Expr, scope: ExpressionScope, source = ""): Value {
  const ev = (e: Expr): Value => evaluate(e, scope, source);
  switch (expr.kind) {
    case "literal":
      return expr.value;
    case "name": {
      const key = Object.keys(scope.contexts).find((k) => k.toLowerCase() === expr.name.toLowerCase());
      if (key === undefined) throw new ExpressionError(`unknown context '${expr.name}' (known here: ${Object.keys(scope.contexts).join(", ")})`, source);
      return scope.contexts[key] ?? null;
    }
    case "member":
      return member(ev(expr.object), ev(expr.property));
    case "not":
      return !truthy(ev(expr.operand));
    case "binary": {
      if (expr.op === "&&") {
        const left = ev(expr.left);
        return truthy(left) ? ev(expr.right) : left;
      }
      if (expr.op === "||") {
        const left = ev(expr.left);
        return truthy(left) ? left : ev(expr.right);
      }
      const [a, b] = [ev(expr.left), ev(expr.right)];
      if (expr.op === "==") return looseEquals(a, b);
      if (expr.op === "!=") return !looseEquals(a, b);
      return compare(a, b, expr.op);
    }
    case "call": {
      const arity = ARITY[expr.name];
      if (arity === undefined) throw new ExpressionError(`unknown function '${expr.name}'`, source);
      if (expr.args.length < arity[0] || expr.args.length > arity[1]) throw new ExpressionError(`${expr.name}() takes ${arity[0]}${arity[1] === arity[0] ? "" : "+"} arguments, got ${expr.args.length}`, source);
      const status = scope.status;
      const needStatus = (): StatusFacts => {
        if (status === undefined) throw new ExpressionError(`${expr.name}() is allowed only in a job's or a step's if`, source);
        return status;
      };
      switch (expr.name) {
        case "success":
          return needStatus().success && !needStatus().cancelled;
        case "failure":
          return needStatus().failure && !needStatus().cancelled;
        case "always":
          needStatus();
          return true;
        case "cancelled":
          return needStatus().cancelled;
      }
      const args = expr.args.map(ev);
      const [a = null, b = null] = args;
      switch (expr.name) {
        case "contains":
          if (Array.isArray(a)) return a.some((item) => looseEquals(item, b));
          return toText(a).toLowerCase().includes(toText(b).toLowerCase());
        case "startswith":
          return toText(a).toLowerCase().startsWith(toText(b).toLowerCase());
        case "endswith":
          return toText(a).toLowerCase().endsWith(toText(b).toLowerCase());
        case "format":
          return format(source, toText(a), args.slice(1));
        case "join":
          return Array.isArray(a) ? a.map(toText).join(args.length > 1 ? toText(b) : ",") : toText(a);
        case "tojson":
          return JSON.stringify(a, null, 2);
        case "fromjson":
          try {
            return toValue(JSON.parse(toText(a)));
          } catch (err) {
            throw new ExpressionError(`fromJSON: not JSON: ${err instanceof Error ? err.message : String(err)}`, source);
          }
      }
      throw new ExpressionError(`unknown function '${expr.name}'`, source);
    }
  }
}

/** Parses and evaluates one expression's source (what is inside `${{ }}`). */
export function evaluateSource(source: string, scope: ExpressionScope): Value {
  return evaluate(parseExpression(source), scope, source);
}
