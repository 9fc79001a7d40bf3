import type { z } from "zod";
import type { Brief, BriefProblem, BriefResult } from "./brief.js";
import { BRIEF_DEFAULTS } from "./brief.js";
import { BRIEF_ID, CLAIM_KEY, briefInputSchema } from "./brief-schema.js";
import { canonicalJson } from "../util/canonical-json.js";
import { sha256Hex } from "../util/sha256.js";
import { readGuardedYaml } from "./read-guarded-yaml.js";
import { groupDigits, utf8Length } from "../util/utf8-length.js";

/** Where a brief came from, for error messages (`briefs/x.yml`, `issue #12`) and its default id. */
export interface BriefSource {
  readonly name: string;
  readonly defaultId?: string;
}

/** Briefs larger than this are refused before parsing: a brief is a page, not a data set. */
export const MAX_BRIEF_BYTES = 64 * 1024;

/**
 * Validates a brief already read as data and normalizes it (defaults filled, durations in seconds).
 * Every problem is reported at once, each naming its field.
 */
export function parseBriefObject(input: unknown, source: BriefSource): BriefResult {
  if (input === null || typeof input !== "object" || Array.isArray(input)) {
    return fail(source, "(root)", "a brief must be a YAML mapping of fields (goal, constraints, acceptance, size_cap, ...)");
  }
  const parsed = briefInputSchema.safeParse(input);
  if (!parsed.success) return { ok: false, problems: zodProblems(parsed.error, input, source) };
  const b = parsed.data;
  const id = b.id ?? source.defaultId;
  if (id === undefined) return fail(source, "id", "id is required when the source gives none");
  // A default id comes from a file name or --id, which nobody validated: hold it to the field's rule.
  if (!BRIEF_ID.test(id)) {
    return fail(source, "id", `id '${id}' (from ${b.id === undefined ? "the file name or --id" : "the id field"}) must be letters, digits, '.', '_' or '-' (at most 100), starting with a letter or digit; set \`id:\` in the brief`);
  }
  const claimKey = b.claim_key ?? `task:${id.toLowerCase()}`;
  if (!CLAIM_KEY.test(claimKey)) return fail(source, "claim_key", `claim_key '${claimKey}' must be namespace:slug, e.g. task:http-retry-after; set \`claim_key:\` in the brief`);
  const brief: Brief = {
    id,
    goal: b.goal,
    constraints: { paths: b.constraints.paths, notes: b.constraints.notes },
    non_goals: b.non_goals,
    acceptance: { command: b.acceptance.command, timeout: b.acceptance.timeout ?? BRIEF_DEFAULTS.acceptanceTimeout },
    size_cap: b.size_cap,
    budget: { ...BRIEF_DEFAULTS.budget, ...stripUndefined(b.budget ?? {}) },
    priority: b.priority ?? BRIEF_DEFAULTS.priority,
    ...(b.due === undefined ? {} : { due: b.due }),
    pool: b.pool ?? BRIEF_DEFAULTS.pool,
    tier: b.tier ?? BRIEF_DEFAULTS.tier,
    claim_key: claimKey,
    blocked_by: b.blocked_by,
  };
  return { ok: true, brief };
}

/** Parses a brief from YAML text; YAML syntax errors are reported with their line and column. */
export function parseBriefYaml(text: string, source: BriefSource): BriefResult {
  // Bytes, as the file's size is counted: a character can take up to four.
  const bytes = text.length > MAX_BRIEF_BYTES / 4 ? utf8Length(text) : text.length;
  if (bytes > MAX_BRIEF_BYTES) {
    return fail(source, "(file)", `the brief is ${groupDigits(bytes)} bytes; at most ${groupDigits(MAX_BRIEF_BYTES)} are read`);
  }
  // Nesting, aliases and key shapes are bounded before and after parsing (read-guarded-yaml.ts).
  const read = readGuardedYaml(text);
  if (!read.ok) return { ok: false, problems: read.problems.map((p) => ({ field: "(yaml)", message: p.message, source: source.name })) };
  const data = read.data;
  return parseBriefObject(data, source);
}

/** The brief's identity for snapshots and workers: `sha256:` over its canonical JSON. */
export function briefHash(brief: Brief): string {
  return `sha256:${sha256Hex(canonicalJson(brief))}`;
}

function zodProblems(error: z.ZodError, input: object, source: BriefSource): BriefProblem[] {
  return error.issues.map((issue) => {
    const field = issue.path.length === 0 ? "(root)" : issue.path.map(String).join(".");
    let message = issue.message;
    if (issue.code === "unrecognized_keys") {
      const where = issue.path.length === 0 ? "" : `${field}.`;
      // A blank key (`: x` in YAML) would otherwise make a blank field name: quote it.
      const keys = issue.keys.map((k) => (k.trim() === "" ? JSON.stringify(k) : k));
      return { field: keys.map((k) => `${where}${k}`).join(", "), message: `unknown field${keys.length > 1 ? "s" : ""}: ${keys.join(", ")}`, source: source.name };
    }
    if (issue.code === "invalid_type" && valueAt(input, issue.path) === undefined) message = `${field} is required`;
    return { field, message, source: source.name };
  });
}

function fail(source: BriefSource, field: string, message: string): BriefResult {
  return { ok: false, problems: [{ field, message, source: source.name }] };
}

function stripUndefined<T extends object>(value: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as { [K in keyof T]: Exclude<T[K], undefined> };
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let at: unknown = root;
  for (const key of path) {
    if (at === null || typeof at !== "object") return undefined;
    at = (at as Record<PropertyKey, unknown>)[key];
  }
  return at;
}
