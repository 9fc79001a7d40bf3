/**
 * GitHub's value rules for expressions: truthiness, loose equality with its coercions (to numbers
 * across types, strings compared case-insensitively), and how a value reads as text.
 * https://docs.github.com/en/actions/reference/workflows-and-actions/expressions#operators
 */

export type Value = null | boolean | number | string | Value[] | { [key: string]: Value };

/** false, 0, -0, NaN, '' and null are falsy; everything else (objects and arrays too) is truthy. */
export function truthy(value: Value): boolean {
  return !(value === null || value === false || value === "" || (typeof value === "number" && (value === 0 || Number.isNaN(value))));
}

/** Coercion to a number for a comparison across types: null 0, booleans 0/1, strings parsed ('' is 0), objects NaN. */
export function toNumber(value: Value): number {
  if (value === null) return 0;
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "number") return value;
  if (typeof value === "string") {
    const trimmed = value.trim();
    if (trimmed === "") return 0;
    return /^[-+]?(?:0x[0-9a-f]+|\d+\.?\d*(?:e[-+]?\d+)?|\.\d+(?:e[-+]?\d+)?)$/i.test(trimmed) ? Number(trimmed) : Number.NaN;
  }
  return Number.NaN;
}

/** `==`: same types compare directly (strings ignoring case, objects by identity), different types as numbers. */
export function looseEquals(a: Value, b: Value): boolean {
  if (typeof a === "string" && typeof b === "string") return a.toLowerCase() === b.toLowerCase();
  if (typeof a === "object" && typeof b === "object" && a !== null && b !== null) return a === b;
  if (typeof a === typeof b && (a === null) === (b === null)) return a === b;
  return toNumber(a) === toNumber(b);
}

/** `<`, `>`...: strings of both sides compare ignoring case; anything else as numbers (NaN compares false). */
export function compare(a: Value, b: Value, op: "<" | "<=" | ">" | ">="): boolean {
  const [x, y] = typeof a === "string" && typeof b === "string" ? [a.toLowerCase(), b.toLowerCase()] : [toNumber(a), toNumber(b)];
  switch (op) {
    case "<":
      return x < y;
    case "<=":
      return x <= y;
    case ">":
      return x > y;
    case ">=":
      return x >= y;
  }
}

/** The text `${{ value }}` becomes: null is '', numbers and booleans as written, objects and arrays as `Object` / `Array`. */
export function toText(value: Value): string {
  if (value === null) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return Array.isArray(value) ? "Array" : "Object";
}

/** Plain JSON into a Value (undefined becomes null). */
export function toValue(json: unknown): Value {
  if (json === undefined || json === null) return null;
  if (typeof json === "string" || typeof json === "number" || typeof json === "boolean") return json;
  if (Array.isArray(json)) return json.map(toValue);
  if (typeof json === "object") return Object.fromEntries(Object.entries(json as Record<string, unknown>).map(([k, v]) => [k, toValue(v)]));
  return null;
}
