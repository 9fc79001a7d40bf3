import type { Brief } from "../../../src/core/brief/brief.js";
import { parseBriefObject } from "../../../src/core/brief/parse-brief.js";
import type { ChangedFile, GateDiff } from "../../../src/core/gate/changed-file.js";

/** A brief through the real parser, so tests see what production sees. */
export function brief(fields: Record<string, unknown> = {}): Brief {
  const result = parseBriefObject(
    { id: "http-retry-after", goal: "Honor Retry-After.", constraints: { paths: ["src/http/**", "test/http/**"], notes: ["keep the public request() signature"] }, non_goals: ["exponential backoff"], acceptance: { command: "npm test" }, size_cap: 300, ...fields },
    { name: "test" },
  );
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result.brief;
}

/** A modified text file with a patch. */
export function file(path: string, additions = 1, deletions = 0, extra: Partial<ChangedFile> = {}): ChangedFile {
  return { path, status: "modified", additions, deletions, patch: "@@ -1 +1 @@\n-a\n+b", ...extra };
}

/** A diff whose totals agree with its rows. */
export function diff(files: readonly ChangedFile[]): GateDiff {
  return {
    files,
    totals: {
      additions: files.reduce((n, f) => n + f.additions, 0),
      deletions: files.reduce((n, f) => n + f.deletions, 0),
      changed_files: files.length,
    },
  };
}
