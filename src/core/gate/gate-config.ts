/**
 * Globs never counted against `size_cap`: none by default. Lock files are not ignored by name (a
 * name proves nothing: `src/lib/yarn.lock` can hold code); `lock-files.ts` keeps out of the count
 * only those beside their manifest and outside the brief's code paths.
 */
export const DEFAULT_SIZE_IGNORE: readonly string[] = [];

/**
 * Paths where a change needs a human whatever the brief allows: CI and repository settings,
 * the briefs themselves (a PR must not edit the rules it is judged by), migrations and auth.
 */
export const DEFAULT_SENSITIVE: readonly string[] = [
  ".github/**",
  "briefs/**",
  "**/CODEOWNERS",
  "**/migrations/**",
  "**/auth/**",
  "**/*.pem",
  "**/*.key",
];

/** GitHub's pull request files API lists at most this many files; past it the list is incomplete. */
export const MAX_LISTED_FILES = 3000;

/** The gate's configuration beside the brief: glob lists (picomatch, `dot: true`). */
export interface GateConfig {
  readonly sensitive: readonly string[];
  readonly sizeIgnore: readonly string[];
}

export const DEFAULT_GATE_CONFIG: GateConfig = { sensitive: DEFAULT_SENSITIVE, sizeIgnore: DEFAULT_SIZE_IGNORE };
