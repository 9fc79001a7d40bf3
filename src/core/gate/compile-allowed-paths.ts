import picomatch from "picomatch";

/** The brief's allowed paths, compiled once (`!` takes a path back out, `dir/` covers a folder). */
export interface AllowedPaths {
  allows(path: string): boolean;
}

interface Rule {
  readonly negated: boolean;
  readonly re: RegExp;
}

/**
 * Compiles `constraints.paths` into the one matcher every face uses (the gate, the agent presets).
 * Written as `.gitignore` lines are — `src/http/**`, `docs/`, `README.md` (a name without a `/`
 * matches at any depth), `/x` anchored at the root — and read in order, the LAST pattern that
 * matches a path deciding: a plain pattern allows it, a `!pattern` takes it back out.
 *
 * Unlike git, a `!` pattern takes a path out even when a folder above it was allowed: gitignore
 * "cannot re-include a file if a parent directory of that file is excluded", which in the brief's
 * reading let `src/**` with `!src/secret/**` allow a change to `src/secret/k.txt`.
 * @example compileAllowedPaths(["src/**", "!src/secret/**"]).allows("src/secret/k.txt") === false
 */
export function compileAllowedPaths(patterns: readonly string[]): AllowedPaths {
  const rules = patterns.flatMap(compileRule);
  return {
    allows(path) {
      // Not a path inside the repository (absolute, `./x`, `../x`, empty): never allowed.
      if (path === "" || path.startsWith("/") || path.split("/").some((part) => part === "." || part === ".." || part === "")) return false;
      const name = path.normalize("NFC");
      let allowed = false;
      for (const rule of rules) if (rule.re.test(name)) allowed = !rule.negated;
      return allowed;
    },
  };
}

function compileRule(line: string): Rule[] {
  let pattern = line.trim();
  // A comment or a blank line, as in .gitignore; `\#` and `\!` stand for the character itself.
  if (pattern === "" || pattern.startsWith("#")) return [];
  const negated = pattern.startsWith("!");
  if (negated) pattern = pattern.slice(1);
  if (pattern.startsWith("\\#") || pattern.startsWith("\\!")) pattern = pattern.slice(1);
  const folder = pattern.endsWith("/");
  const spelled = plainSpelling(pattern);
  // A negation that names no path must still take out what it meant: matching nothing would
  // allow it. One that climbs above the root takes out everything; a plain one allows nothing.
  if (spelled === undefined) return negated ? [{ negated, re: /^/ }] : [];
  pattern = spelled.replace(/\/+$/, "");
  if (pattern === "") return [];
  // With a `/` before its end the pattern is anchored at the root; without, it matches at any depth.
  const anchored = pattern.includes("/");
  pattern = pattern.replace(/^\/+/, "");
  const base = anchored ? pattern : `**/${pattern}`;
  // A pattern that names a folder covers everything in it; `dir/` names only a folder.
  // (`/**/*`, not `/**`: picomatch lets `x/**` match `x` itself, a file named like the folder.)
  const globs = folder ? [`${base}/**/*`] : [base, `${base}/**/*`];
  return [{ negated, re: new RegExp(globs.map((g) => `(?:${picomatch.makeRe(g, { dot: true }).source})`).join("|")) }];
}

const GLOB = /[*?[\]{}()!+@]/;

/**
 * The pattern as the paths it names are spelled in a diff: Unicode NFC (the form paths are
 * compared in), one `/` between parts, no `.` parts, and a `..` part taken back with the plain
 * name before it. Each of `!cafe\u0301/**`, `!src//secret/**`, `!src/./secret/**` and
 * `!src/../src/secret/**` once matched nothing, so the path it was written to take out passed the
 * gate. Undefined when a `..` follows a wildcard or climbs above the root, or nothing is left
 * (`.`, `src/..`): no spelling of a path is meant.
 */
function plainSpelling(pattern: string): string | undefined {
  // Anchored as written (`./.env` names the root's .env only), however the parts are cleaned.
  const anchored = pattern.replace(/\/+$/, "").includes("/");
  const trailing = pattern.endsWith("/");
  const parts: string[] = [];
  for (const part of pattern.normalize("NFC").split("/")) {
    if (part === "" || part === ".") continue;
    if (part !== "..") {
      parts.push(part);
      continue;
    }
    const last = parts.pop();
    if (last === undefined || GLOB.test(last)) return undefined;
  }
  if (parts.length === 0) return undefined;
  return `${anchored ? "/" : ""}${parts.join("/")}${trailing ? "/" : ""}`;
}
