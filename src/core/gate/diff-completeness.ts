import type { GateDiff } from "./changed-file.js";
import { MAX_LISTED_FILES } from "./gate-config.js";

/** Why a diff's file rows cannot be trusted to be the whole change; empty when they can. */
export interface DiffGaps {
  /** Whether the file list itself is whole (every changed name is present). */
  readonly listComplete: boolean;
  /** Whether per-file counts are whole (list whole, rows add up to the totals, no missing patch). */
  readonly countsComplete: boolean;
  readonly reasons: readonly string[];
  /** Files that came without a patch although they are not known binary files or pure renames. */
  readonly missingPatch: readonly string[];
}

/**
 * Compares the file rows with the independent totals. GitHub lists at most 3,000 files and, past
 * ~20,000 lines, sends rows with zero counts and no patch and marks nothing: each symptom is a gap.
 */
export function diffCompleteness(diff: GateDiff): DiffGaps {
  const reasons: string[] = [];
  const { files, totals } = diff;
  let listComplete = true;
  if (totals.changed_files > MAX_LISTED_FILES || files.length > MAX_LISTED_FILES) {
    listComplete = false;
    reasons.push(`${Math.max(totals.changed_files, files.length)} files changed; GitHub lists at most ${MAX_LISTED_FILES}, so the list is incomplete`);
  } else if (files.length !== totals.changed_files) {
    listComplete = false;
    reasons.push(`the file list has ${files.length} files but the totals say ${totals.changed_files}`);
  }
  let additions = 0;
  let deletions = 0;
  const missingPatch: string[] = [];
  for (const file of files) {
    additions += file.additions;
    deletions += file.deletions;
    if (file.patch === undefined && file.binary !== true && !isPureRename(file)) missingPatch.push(file.path);
  }
  let rowsAddUp = true;
  if (listComplete && (additions !== totals.additions || deletions !== totals.deletions)) {
    rowsAddUp = false;
    reasons.push(`the file rows add up to +${additions} −${deletions} but the totals say +${totals.additions} −${totals.deletions}`);
  }
  if (missingPatch.length > 0) {
    reasons.push(`${missingPatch.length} file${missingPatch.length === 1 ? "" : "s"} came without a patch (binary, too large or truncated; nothing says which): ${preview(missingPatch)}`);
  }
  return { listComplete, countsComplete: listComplete && rowsAddUp && missingPatch.length === 0, reasons, missingPatch };
}

/** A rename or copy with no line changed legitimately has no patch. */
function isPureRename(file: GateDiff["files"][number]): boolean {
  return (file.status === "renamed" || file.status === "copied") && file.additions === 0 && file.deletions === 0;
}

/** The first few names, then a count: evidence stays readable on a 3,000-file diff. */
export function preview(names: readonly string[], max = 10): string {
  const head = names.slice(0, max).join(", ");
  return names.length > max ? `${head} and ${names.length - max} more` : head;
}
