/** Typed reads of a JSON request body, failing the way GitHub does (422 naming the field). */
import { HttpError, validationFailed } from "./http-error.js";

export function requiredString(body: Record<string, unknown>, key: string): string {
  const value = body[key];
  if (value === undefined || value === null) throw validationFailed(`Invalid request.\n\n"${key}" wasn't supplied.`);
  if (typeof value !== "string") throw validationFailed(`Invalid request.\n\nFor '${key}', ${JSON.stringify(value)} is not a string.`);
  return value;
}

export function optionalString(body: Record<string, unknown>, key: string): string | undefined {
  const value = body[key];
  if (value === undefined) return undefined;
  if (typeof value !== "string") throw validationFailed(`Invalid request.\n\nFor '${key}', ${JSON.stringify(value)} is not a string.`);
  return value;
}

/** A nullable string field: `undefined` = absent, `null` = cleared. */
export function nullableString(body: Record<string, unknown>, key: string): string | null | undefined {
  if (body[key] === null) return null;
  return optionalString(body, key);
}

export function optionalStringArray(body: Record<string, unknown>, key: string): string[] | undefined {
  const value = body[key];
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) throw validationFailed(`Invalid request.\n\nFor '${key}', ${JSON.stringify(value)} is not an array.`);
  return value.map((item: unknown) => {
    if (typeof item === "string") return item;
    // `labels` may also be objects `{name}`.
    if (typeof item === "object" && item !== null && typeof (item as { name?: unknown }).name === "string") return (item as { name: string }).name;
    throw validationFailed(`Invalid request.\n\nFor '${key}', ${JSON.stringify(item)} is not a string.`);
  });
}

export function optionalBoolean(body: Record<string, unknown>, key: string): boolean | undefined {
  const value = body[key];
  if (value === undefined) return undefined;
  if (typeof value !== "boolean") throw validationFailed(`Invalid request.\n\nFor '${key}', ${JSON.stringify(value)} is not a boolean.`);
  return value;
}

/** A `{param}` that must be a positive integer. */
export function intParam(params: Record<string, string>, key: string): number {
  const n = Number(params[key]);
  if (!Number.isInteger(n) || n < 1) throw new HttpError(404, "Not Found");
  return n;
}
