import type { ChangedFile } from "./changed-file.js";
import { fileNames } from "./changed-file.js";
import type { Annotation, CheckResult } from "./check-result.js";
import type { GlobSet } from "./compile-globs.js";
import { preview } from "./diff-completeness.js";

/** A change touching a sensitive path needs a human, whatever the brief allows: it fails the gate. */
export function checkSensitive(files: readonly ChangedFile[], sensitive: GlobSet, listComplete: boolean): CheckResult {
  const hits: string[] = [];
  const annotations: Annotation[] = [];
  for (const file of files) {
    for (const name of fileNames(file)) {
      const pattern = sensitive.which(name);
      if (pattern === undefined) continue;
      hits.push(`${name} (${pattern})`);
      annotations.push({ path: file.path, message: `${name} is sensitive (${pattern}): a human must approve this change` });
    }
  }
  if (hits.length > 0) {
    return { check: "sensitive", result: "failed", evidence: `needs a human: ${preview(hits, 20)}`, annotations, needsHuman: true };
  }
  if (!listComplete) return { check: "sensitive", result: "could-not-check", evidence: "no listed file is sensitive, but the file list is incomplete", annotations: [] };
  return { check: "sensitive", result: "passed", evidence: `no changed path matches ${sensitive.patterns.length} sensitive pattern${sensitive.patterns.length === 1 ? "" : "s"}`, annotations: [] };
}
