import type { ChangedFile } from "./changed-file.js";
import { fileNames } from "./changed-file.js";
import type { Annotation, CheckResult } from "./check-result.js";
import { checkResult } from "./check-result.js";
import type { AllowedPaths } from "./compile-allowed-paths.js";
import { preview } from "./diff-completeness.js";

/**
 * Every changed name (both names of a rename) must be inside the brief's allowed paths.
 * A found off-brief file fails even on an incomplete list; an incomplete list never passes.
 */
export function checkPaths(files: readonly ChangedFile[], allowed: AllowedPaths, patterns: readonly string[], listComplete: boolean): CheckResult {
  const off: string[] = [];
  const annotations: Annotation[] = [];
  for (const file of files) {
    for (const name of fileNames(file)) {
      if (allowed.allows(name)) continue;
      off.push(name);
      const how = name === file.path ? (file.previousPath !== undefined && file.previousPath !== file.path ? `renamed from ${file.previousPath} to` : "changed") : `renamed away from (now ${file.path})`;
      // The annotation is shown against file.path already: name the file again only when it is another name (a rename).
      annotations.push({ path: file.path, message: `${name === file.path ? "" : `${name}: `}${how} outside the brief's allowed paths (${patterns.join(", ")})` });
    }
  }
  if (off.length > 0) {
    return checkResult("paths", "failed", `${off.length} path${off.length === 1 ? "" : "s"} outside the allowed paths (${patterns.join(", ")}): ${preview(off, 50)}`, annotations);
  }
  if (!listComplete) return checkResult("paths", "could-not-check", `the ${files.length} listed files are allowed, but the file list is incomplete`);
  return checkResult("paths", "passed", `all ${files.length} changed file${files.length === 1 ? "" : "s"} inside ${patterns.join(", ")}`);
}
