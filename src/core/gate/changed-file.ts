/** How a file changed, as GitHub's pull request files API and `git diff --name-status` both name it. */
export type FileStatus = "added" | "removed" | "modified" | "renamed" | "copied" | "changed" | "unchanged";

/** One changed file of a diff, from either source (GitHub's API or a local git diff). */
export interface ChangedFile {
  readonly path: string;
  /** The old name of a rename or copy: both names must be allowed. */
  readonly previousPath?: string;
  readonly status: FileStatus;
  readonly additions: number;
  readonly deletions: number;
  /** The unified-diff hunks; undefined when the source sent none (binary, too large, or truncated). */
  readonly patch?: string;
  /** True only when the source says the file is binary (git's numstat `-`); GitHub never says so. */
  readonly binary?: boolean;
}

/** The totals of the whole change, from a source independent of the file rows (the PR object, `git diff --shortstat`). */
export interface DiffTotals {
  readonly additions: number;
  readonly deletions: number;
  readonly changed_files: number;
}

/** A diff as the gate sees it: file rows plus the totals they are checked against. */
export interface GateDiff {
  readonly files: readonly ChangedFile[];
  readonly totals: DiffTotals;
}

/** Both names of a file (one when it was not renamed or copied). */
export function fileNames(file: ChangedFile): readonly string[] {
  return file.previousPath === undefined || file.previousPath === file.path ? [file.path] : [file.previousPath, file.path];
}
