/**
 * The error a workflow file that the player cannot read raises, naming the file and the key, and the
 * shape checks of the parser that raise it.
 */

export type ScopeLevel = "read" | "write" | "none";

/** `permissions:` as written: a map of scopes, `read-all`/`write-all`, or `{}`. */
export type PermissionsSpec = Readonly<Record<string, ScopeLevel>> | "read-all" | "write-all";

export class WorkflowError extends Error {
  constructor(path: string, message: string) {
    super(`${path}: ${message}`);
    this.name = "WorkflowError";
  }
}

export type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

export function strings(path: string, where: string, value: unknown): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (!isObj(value)) throw new WorkflowError(path, `${where} must be a map`);
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, v === null ? "" : typeof v === "object" ? JSON.stringify(v) : String(v)]));
}

export function list(value: unknown): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  return (Array.isArray(value) ? value : [value]).map(String);
}

export function permissions(path: string, where: string, value: unknown): PermissionsSpec | undefined {
  if (value === undefined) return undefined;
  if (value === "read-all" || value === "write-all") return value;
  if (!isObj(value)) throw new WorkflowError(path, `${where}: permissions must be a map, read-all or write-all`);
  const out: Record<string, ScopeLevel> = {};
  for (const [scope, level] of Object.entries(value)) {
    if (level !== "read" && level !== "write" && level !== "none") throw new WorkflowError(path, `${where}: permission ${scope} must be read, write or none, not ${String(level)}`);
    out[scope.replace(/-/g, "_")] = level;
  }
  return out;
}

