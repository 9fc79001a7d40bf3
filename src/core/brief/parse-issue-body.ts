import type { BriefProblem, BriefResult } from "./brief.js";
import type { BriefSource } from "./parse-brief.js";
import { MAX_BRIEF_BYTES, parseBriefObject, parseBriefYaml } from "./parse-brief.js";
import { groupDigits, utf8Length } from "../util/utf8-length.js";

type Shape = "text" | "list" | "number" | "dollars" | "code";

/** Issue form section headings (`### Goal`) and the brief field each fills. */
export const ISSUE_SECTIONS: Readonly<Record<string, { readonly field: readonly string[]; readonly shape: Shape }>> = {
  "id": { field: ["id"], shape: "text" },
  "goal": { field: ["goal"], shape: "text" },
  "allowed paths": { field: ["constraints", "paths"], shape: "list" },
  "constraints": { field: ["constraints", "notes"], shape: "list" },
  "notes": { field: ["constraints", "notes"], shape: "list" },
  "non-goals": { field: ["non_goals"], shape: "list" },
  "acceptance command": { field: ["acceptance", "command"], shape: "code" },
  "acceptance timeout": { field: ["acceptance", "timeout"], shape: "text" },
  "size cap": { field: ["size_cap"], shape: "number" },
  "wall clock budget": { field: ["budget", "wall_clock"], shape: "text" },
  "step budget": { field: ["budget", "steps"], shape: "number" },
  "token budget": { field: ["budget", "tokens"], shape: "number" },
  "tool error budget": { field: ["budget", "tool_errors"], shape: "number" },
  "money budget": { field: ["budget", "usd"], shape: "dollars" },
  "priority": { field: ["priority"], shape: "text" },
  "due": { field: ["due"], shape: "text" },
  "pool": { field: ["pool"], shape: "text" },
  "tier": { field: ["tier"], shape: "text" },
  "claim key": { field: ["claim_key"], shape: "text" },
  "blocked by": { field: ["blocked_by"], shape: "list" },
};

const NO_RESPONSE = "_No response_";

/**
 * Reads a brief from a GitHub issue body: the sections of the brief issue form (`### Goal`, ...,
 * with `_No response_` read as empty), or else a fenced ```yaml block. Unknown sections are
 * context for people and are ignored.
 */
export function parseIssueBody(body: string, source: BriefSource): BriefResult {
  const bytes = body.length > MAX_BRIEF_BYTES / 4 ? utf8Length(body) : body.length;
  if (bytes > MAX_BRIEF_BYTES) {
    return { ok: false, problems: [{ field: "(body)", message: `the issue body is ${groupDigits(bytes)} bytes; at most ${groupDigits(MAX_BRIEF_BYTES)} are read`, source: source.name }] };
  }
  // A byte-order mark would hide the first `### Goal` heading (copied from an editor that adds one).
  const text = body.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  const sections = splitSections(text);
  if (!sections.has("goal")) {
    const fenced = fencedYaml(text);
    if (fenced !== undefined) return parseBriefYaml(fenced, source);
    return { ok: false, problems: [{ field: "(body)", message: "no brief found: use the brief issue form (### Goal, ### Allowed paths, ...) or a ```yaml block", source: source.name }] };
  }
  const data: Record<string, unknown> = {};
  for (const [heading, raw] of sections) {
    const spec = ISSUE_SECTIONS[heading];
    if (spec === undefined) continue;
    const value = readValue(raw, spec.shape);
    if (value === undefined) continue;
    setPath(data, spec.field, value);
  }
  const result = parseBriefObject(data, source);
  return result.ok ? result : { ok: false, problems: result.problems.map(inFormWords) };
}

/** The brief issue form's section titles, by the brief field each fills (`.github/ISSUE_TEMPLATE/bosun-brief.yml`). */
const FORM_TITLES: ReadonlyArray<readonly [field: string, title: string]> = [
  ...Object.entries(ISSUE_SECTIONS)
    .filter(([heading]) => heading !== "notes")
    .map(([heading, spec]) => [spec.field.join("."), heading === "id" ? "ID" : heading.charAt(0).toUpperCase() + heading.slice(1)] as const),
  // A whole object missing is its required section missing.
  ["constraints", "Allowed paths"],
  ["acceptance", "Acceptance command"],
  ["budget", "Wall clock budget"],
];

/**
 * A problem found in a form-filled brief, named as the form names it: the section title, then the
 * brief field in brackets — `Allowed paths (constraints.paths): this section is required`, not
 * `constraints: constraints is required`.
 */
function inFormWords(p: BriefProblem): BriefProblem {
  const match = FORM_TITLES.filter(([field]) => p.field === field || p.field.startsWith(`${field}.`)).sort((a, b) => b[0].length - a[0].length)[0];
  if (match === undefined) return p;
  const [field, title] = match;
  // The field a missing object stands for is the one its section fills.
  const shown = field === "constraints" ? "constraints.paths" : field === "acceptance" ? "acceptance.command" : p.field;
  let message = p.message.startsWith(`${p.field} `) ? p.message.slice(p.field.length + 1) : p.message;
  if (message === "is required") message = "this section is required";
  return { ...p, field: `${title} (${shown})`, message };
}

function splitSections(text: string): Map<string, string> {
  const sections = new Map<string, string>();
  let current: string | undefined;
  let lines: string[] = [];
  let fence = false;
  const flush = (): void => {
    if (current !== undefined && !sections.has(current)) sections.set(current, lines.join("\n"));
  };
  for (const line of text.split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) fence = !fence;
    const heading = fence ? undefined : headingOf(line);
    if (heading !== undefined) {
      flush();
      current = heading.toLowerCase().replace(/\s+/g, " ").replace(/[*_`:]/g, "").trim();
      lines = [];
    } else lines.push(line);
  }
  flush();
  return sections;
}

function readValue(raw: string, shape: Shape): unknown {
  const trimmed = raw.trim();
  if (trimmed === "" || trimmed === NO_RESPONSE) return undefined;
  switch (shape) {
    case "text":
      return trimmed
        .split("\n")
        .map((line) => line.trim())
        .filter((line) => line !== "")
        .join(" ");
    case "code":
      return unfence(trimmed);
    case "number":
      return /^\d+$/.test(trimmed.replace(/[,_\s]/g, "")) ? Number(trimmed.replace(/[,_\s]/g, "")) : trimmed;
    case "dollars": {
      // "$2.50", "2.50 USD" and "2.5" are one amount; anything else goes to the schema as written,
      // which names the field and what it wants.
      const amount = trimmed.replace(/^\$\s*/, "").replace(/\s*(?:usd|us\$|dollars?)$/i, "").replace(/[,_\s]/g, "");
      return /^\d+(?:\.\d+)?$/.test(amount) ? Number(amount) : trimmed;
    }
    case "list":
      return unfence(trimmed)
        .split("\n")
        .flatMap(splitTopLevelCommas)
        .map((item) => item.replace(/^\s*(?:[-*+]|\d+\.)\s+(?:\[[ xX]\]\s+)?/, "").replace(/^`(.*)`$/, "$1").trim())
        .filter((item) => item !== "" && item !== NO_RESPONSE);
  }
}

// The scanners below are written by hand, not as regular expressions: an issue body is written by
// anyone, and the earlier patterns (`\s*#*\s*$`, `,(?![^{]*})`, `\s*\n\s*`) backtracked
// polynomially — a 3,000-space heading took 9 s. Every helper here is linear in its input.

/** The text of a `### Heading` line (closing `#`s dropped), or undefined for any other line. */
function headingOf(line: string): string | undefined {
  if (!line.startsWith("###")) return undefined;
  const rest = line.slice(3);
  if (rest === "" || (rest[0] !== " " && rest[0] !== "\t")) return undefined;
  let title = rest.trim();
  let end = title.length;
  while (end > 0 && title[end - 1] === "#") end--;
  // CommonMark: a closing sequence of #s counts only after a space (or as the whole title).
  if (end === 0 || title[end - 1] === " " || title[end - 1] === "\t") title = title.slice(0, end).trim();
  return title === "" ? undefined : title;
}

/** The content of the first ```yaml fenced block, if any. */
function fencedYaml(text: string): string | undefined {
  const lines = text.split("\n");
  const start = lines.findIndex((line) => /^```ya?ml(?:[^A-Za-z0-9]|$)/.test(line));
  if (start < 0) return undefined;
  for (let i = start + 1; i < lines.length; i++) {
    if ((lines[i] ?? "").trimEnd() === "```") return lines.slice(start + 1, i).join("\n") + "\n";
  }
  return undefined;
}

/** Splits on commas outside `{...}`, so a glob such as `src/{a,b}/**` stays whole. */
function splitTopLevelCommas(line: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === "{") depth++;
    else if (c === "}" && depth > 0) depth--;
    else if (c === "," && depth === 0) {
      parts.push(line.slice(from, i));
      from = i + 1;
    }
  }
  parts.push(line.slice(from));
  return parts;
}

function unfence(text: string): string {
  const lines = text.split("\n");
  const open = /^(`{3,}|~{3,})/.exec(lines[0] ?? "")?.[1];
  let inner = text;
  if (open !== undefined && lines.length >= 2) {
    const last = (lines[lines.length - 1] ?? "").trimEnd();
    if (last.endsWith(open)) {
      const tail = last.slice(0, last.length - open.length);
      inner = [...lines.slice(1, -1), ...(tail.trim() === "" ? [] : [tail])].join("\n");
    }
  }
  inner = inner.trim();
  return inner.length >= 2 && inner.startsWith("`") && inner.endsWith("`") && !inner.slice(1, -1).includes("`") ? inner.slice(1, -1).trim() : inner;
}

function setPath(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let at = target;
  for (const key of path.slice(0, -1)) {
    const next = at[key];
    if (next === null || typeof next !== "object") at[key] = {};
    at = at[key] as Record<string, unknown>;
  }
  const last = path[path.length - 1] as string;
  const existing = at[last];
  at[last] = Array.isArray(existing) && Array.isArray(value) ? [...(existing as unknown[]), ...value] : value;
}
