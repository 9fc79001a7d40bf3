import ignore from "ignore";

/** The brief's allowed paths, compiled once with gitignore semantics (`!` negates, `dir/` covers a folder). */
export interface AllowedPaths {
  allows(path: string): boolean;
}

/**
 * Compiles `constraints.paths` with `ignore` (gitignore rules, case-sensitive like git): the same reading a maintainer
 * has of `.gitignore`, so `src/http/**`, `docs/` and `README.md` mean what they mean there.
 */
export function compileAllowedPaths(patterns: readonly string[]): AllowedPaths {
  const rules = ignore({ allowRelativePaths: false, ignorecase: false }).add([...patterns]);
  return {
    allows(path) {
      // `ignore` throws on paths that are not relative (`/x`, `./x`, ``): such a name is never allowed.
      try {
        return rules.ignores(path);
      } catch {
        return false;
      }
    },
  };
}
