/** Lock files: machine-written, so their lines do not count against `size_cap` by default. */
export const DEFAULT_SIZE_IGNORE: readonly string[] = [
  "**/package-lock.json",
  "**/npm-shrinkwrap.json",
  "**/yarn.lock",
  "**/pnpm-lock.yaml",
  "**/bun.lockb",
  "**/Cargo.lock",
  "**/go.sum",
  "**/poetry.lock",
  "**/uv.lock",
  "**/Gemfile.lock",
  "**/composer.lock",
];

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
