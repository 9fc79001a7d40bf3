/**
 * `strategy.matrix` as GitHub expands it: the vectors' cartesian product (the first vector varies
 * slowest), `exclude` removing combinations, then each `include` entry added to every combination
 * it does not contradict or, when it fits none, added as a combination of its own. The matrix may
 * be one expression or hold expressions (`include: ${{ fromJSON(inputs.items) }}`).
 * https://docs.github.com/en/actions/how-tos/write-workflows/choose-what-workflows-do/run-job-variations
 * The error texts are those of GitHub's workflow parser (actions/runner,
 * src/Sdk/WorkflowParser/Conversion/WorkflowTemplateConverter.cs and MatrixBuilder.cs).
 */
import type { ExpressionScope } from "./evaluate-expression.js";
import { toText, type Value } from "./expression-values.js";
import { interpolateValue } from "./interpolate.js";

export interface MatrixLeg {
  /** The `matrix` context of the leg. */
  readonly matrix: Record<string, Value>;
  /** GitHub's name for the leg is `<job> (<label>)`: the leg's values, in order, comma-separated. */
  readonly label: string;
}

type Obj = { [key: string]: Value };
const isObj = (v: Value): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** The raw YAML with every string that holds `${{ }}` evaluated (a whole expression keeps its type). */
function evaluateDeep(raw: unknown, scope: ExpressionScope): Value {
  if (typeof raw === "string") return raw.includes("${{") ? interpolateValue(raw, scope) : raw;
  if (Array.isArray(raw)) return raw.map((v) => evaluateDeep(v, scope));
  if (typeof raw === "object" && raw !== null) return Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, evaluateDeep(v, scope)]));
  return raw === undefined ? null : (raw as Value);
}

const same = (a: Value, b: Value): boolean => JSON.stringify(a) === JSON.stringify(b);
const fits = (filter: Obj, combination: Obj): boolean => Object.entries(filter).every(([k, v]) => same(combination[k] ?? null, v));

function segments(value: Value): string[] {
  if (Array.isArray(value)) return value.flatMap(segments);
  if (isObj(value)) return Object.values(value).flatMap(segments);
  const text = toText(value);
  return text === "" ? [] : [text];
}

function listOf(value: Value, what: string): Value[] {
  if (!Array.isArray(value)) throw new Error(`Unexpected value '${toText(value)}': ${what} must be a sequence`);
  return value;
}

/** The legs of a matrix; throws GitHub's error for a matrix that defines nothing to run. */
export function expandMatrix(raw: unknown, scope: ExpressionScope): MatrixLeg[] {
  const matrix = evaluateDeep(raw, scope);
  if (!isObj(matrix)) throw new Error(`Unexpected value '${toText(matrix)}': the matrix must be a mapping`);
  const vectors: [string, Value[]][] = [];
  let include: Obj[] = [];
  let exclude: Obj[] = [];
  for (const [key, value] of Object.entries(matrix)) {
    if (key === "include" || key === "exclude") {
      const items = listOf(value, `matrix ${key}s`).map((item) => {
        if (!isObj(item)) throw new Error(`Unexpected value '${toText(item)}': a matrix ${key} item must be a mapping`);
        return item;
      });
      if (key === "include") include = items;
      else exclude = items;
      continue;
    }
    const vector = listOf(value, "matrix vector value");
    if (vector.length === 0) throw new Error(`Matrix vector '${key}' does not contain any values`);
    vectors.push([key, vector]);
  }
  if (vectors.length === 0 && include.length === 0) throw new Error("Matrix must define at least one vector");
  for (const item of exclude) {
    const stray = Object.keys(item).find((k) => !vectors.some(([name]) => name === k));
    if (stray !== undefined) throw new Error(`Matrix exclude key '${stray}' does not match any key within the matrix`);
  }
  const filters = include.map((item) => {
    if (Object.keys(item).length === 0) throw new Error("Matrix include mapping does not contain any values");
    const filter: Obj = {};
    const extra: Obj = {};
    for (const [k, v] of Object.entries(item)) (vectors.some(([name]) => name === k) ? filter : extra)[k] = v;
    return { filter, extra, matched: false };
  });
  const legs: MatrixLeg[] = [];
  const size = vectors.length === 0 ? 0 : vectors.reduce((n, [, v]) => n * v.length, 1);
  for (let index = 0; index < size; index++) {
    const combination: Obj = {};
    let block = size;
    for (const [name, vector] of vectors) {
      block /= vector.length;
      combination[name] = vector[Math.floor(index / block) % vector.length] ?? null;
    }
    if (exclude.some((item) => fits(item, combination))) continue;
    const label = segments(combination).join(", ");
    for (const f of filters) {
      if (!fits(f.filter, combination)) continue;
      f.matched = true;
      Object.assign(combination, f.extra);
    }
    legs.push({ matrix: combination, label });
  }
  for (const f of filters.filter((x) => !x.matched)) {
    const combination = { ...f.filter, ...f.extra };
    legs.push({ matrix: combination, label: segments(combination).join(", ") });
  }
  return legs;
}
