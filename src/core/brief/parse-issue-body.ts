import type { BriefResult } from "./brief.js";
import type { BriefSource } from "./parse-brief.js";
import { MAX_BRIEF_BYTES, parseBriefObject, parseBriefYaml } from "./parse-brief.js";

type Shape = "text" | "list" | "number" | "code";

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
  if (body.length > MAX_BRIEF_BYTES) {
    return { ok: false, problems: [{ field: "(body)", message: `the issue body is ${body.length} bytes; at most ${MAX_BRIEF_BYTES} are read`, source: source.name }] };
  }
  const text = body.replace(/\r\n?/g, "\n");
  const sections = splitSections(text);
  if (!sections.has("goal")) {
    const fenced = /^```ya?ml[^\n]*\n([\s\S]*?)^```\s*$/m.exec(text);
    if (fenced !== null) return parseBriefYaml(fenced[1] ?? "", source);
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
  return parseBriefObject(data, source);
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
    const heading = fence ? null : /^###\s+(.+?)\s*#*\s*$/.exec(line);
    if (heading !== null) {
      flush();
      current = (heading[1] ?? "").toLowerCase().replace(/\s+/g, " ").replace(/[*_`:]/g, "").trim();
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
      return trimmed.replace(/\s*\n\s*/g, " ");
    case "code":
      return unfence(trimmed);
    case "number":
      return /^\d+$/.test(trimmed.replace(/[,_\s]/g, "")) ? Number(trimmed.replace(/[,_\s]/g, "")) : trimmed;
    case "list":
      return unfence(trimmed)
        .split(/\n|,(?![^{]*})/)
        .map((item) => item.replace(/^\s*(?:[-*+]|\d+\.)\s+(?:\[[ xX]\]\s+)?/, "").replace(/^`(.*)`$/, "$1").trim())
        .filter((item) => item !== "" && item !== NO_RESPONSE);
  }
}

function unfence(text: string): string {
  const m = /^(```|~~~)[^\n]*\n([\s\S]*?)\n?\1\s*$/.exec(text);
  const inner = m === null ? text : (m[2] ?? "");
  return inner.replace(/^`([^`]*)`$/, "$1").trim();
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
