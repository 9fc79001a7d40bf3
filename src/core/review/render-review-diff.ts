import type { GateDiff } from "../gate/changed-file.js";

/** The diff as the reviewer reads it: a header per file, then its hunks. */
export function renderReviewDiff(diff: GateDiff): string {
  return diff.files
    .map((f) => {
      const from = f.previousPath !== undefined && f.previousPath !== f.path ? `, from ${f.previousPath}` : "";
      const body = f.binary === true ? "(binary file)" : (f.patch ?? "(no patch available)");
      return `--- file: ${f.path} (${f.status}${from}, +${f.additions} -${f.deletions})\n${body}`;
    })
    .join("\n");
}
