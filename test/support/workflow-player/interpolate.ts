/**
 * `${{ }}` inside workflow strings, and `if:` conditions, as the runner evaluates them: every
 * `${{ expr }}` in a string is replaced by its value as text (a string that is one expression keeps
 * its value's type); an `if:` may omit `${{ }}`, and without a status function it means
 * `success() && (condition)`.
 */
import { evaluate, evaluateSource, usesStatusFunction, type ExpressionScope } from "./evaluate-expression.js";
import { ExpressionError, parseExpression } from "./parse-expression.js";
import { toText, truthy, type Value } from "./expression-values.js";

const WHOLE = /^\s*\$\{\{([\s\S]*?)\}\}\s*$/;

/** Finds the `}}` that closes an expression starting at `from`, skipping quoted strings. */
function closing(text: string, from: number): number {
  let quoted = false;
  for (let i = from; i < text.length; i++) {
    if (text[i] === "'") quoted = !quoted;
    else if (!quoted && text.startsWith("}}", i)) return i;
  }
  return -1;
}

/** The string with every `${{ }}` replaced by its value as text. */
export function interpolate(text: string, scope: ExpressionScope): string {
  let out = "";
  let i = 0;
  for (;;) {
    const start = text.indexOf("${{", i);
    if (start < 0) return out + text.slice(i);
    const end = closing(text, start + 3);
    if (end < 0) throw new ExpressionError("`${{` without its `}}`", text);
    out += text.slice(i, start) + toText(evaluateSource(text.slice(start + 3, end), scope));
    i = end + 2;
  }
}

/** A value of a `with:`/`env:` entry or an output: one whole expression keeps its type, else text. */
export function interpolateValue(text: string, scope: ExpressionScope): Value {
  const whole = WHOLE.exec(text);
  if (whole !== null && closing(text, text.indexOf("${{") + 3) === text.lastIndexOf("}}")) return evaluateSource(whole[1] as string, scope);
  return interpolate(text, scope);
}

/** Whether a job or step runs: its `if:` (with or without `${{ }}`), `success()` when there is none. */
export function evaluateIf(condition: string | boolean | number | undefined, scope: ExpressionScope): boolean {
  if (condition === undefined) return truthy(evaluateSource("success()", scope));
  if (typeof condition !== "string") return truthy(condition);
  const whole = WHOLE.exec(condition);
  const source = whole !== null ? (whole[1] as string) : condition;
  if (whole === null && condition.includes("${{")) {
    // Text around an expression: GitHub evaluates the string, which is then truthy when non-empty.
    return truthy(interpolate(condition, scope));
  }
  const expr = parseExpression(source);
  const value = evaluate(usesStatusFunction(expr) ? expr : { kind: "binary", op: "&&", left: { kind: "call", name: "success", args: [] }, right: expr }, scope, source);
  return truthy(value);
}
