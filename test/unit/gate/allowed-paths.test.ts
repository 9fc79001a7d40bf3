/** The one reading of a brief's allowed paths, as docs/briefs.md states it: last match decides, `!` always takes back. */
import { describe, expect, it } from "vitest";
import { compileAllowedPaths } from "../../../src/core/gate/compile-allowed-paths.js";

const CASES: Array<[string, readonly string[], string, boolean]> = [
  // Seen failing before the fix: gitignore cannot re-exclude under a matched folder, so this was allowed.
  ["a negation under an allowed tree takes the path back out", ["src/**", "!src/secret/**"], "src/secret/k.txt", false],
  ["deeper under the negated folder too", ["src/**", "!src/secret/**"], "src/secret/a/b/c.ts", false],
  ["a negated folder written dir/", ["src/", "!src/secret/"], "src/secret/k.txt", false],
  ["a negated single file", ["src/**", "!src/http/vendor.ts"], "src/http/vendor.ts", false],
  ["its siblings stay allowed", ["src/**", "!src/secret/**"], "src/public/k.txt", true],
  ["a later pattern allows again (last match decides)", ["src/**", "!src/secret/**", "src/secret/ok.md"], "src/secret/ok.md", true],
  ["a negation before the allowing pattern changes nothing", ["!src/secret/**", "src/**"], "src/secret/k.txt", true],
  ["a name without / matches at any depth", ["README.md"], "docs/README.md", true],
  ["a folder name covers its contents", ["docs"], "docs/a/b.md", true],
  ["dir/ covers only a folder's contents", ["docs/"], "docs", false],
  ["an anchored pattern matches from the root only", ["/src/*.ts"], "lib/src/a.ts", false],
  ["dot files match", [".github/**"], ".github/workflows/ci.yml", true],
  ["case matters, as in git", ["src/**"], "SRC/a.ts", false],
  ["a path outside the repository is never allowed", ["**"], "../etc/passwd", false],
  ["an absolute path is never allowed", ["**"], "/etc/passwd", false],
  ["nothing is allowed by default", [], "src/a.ts", false],
  ["a comment line is not a pattern", ["# src/**"], "src/a.ts", false],
  // Seen failing before the fix: each negation matched nothing, so the path it names was allowed.
  ["a negation in another Unicode form (NFD) takes the NFC path out", ["**", "!cafe\u0301/**"], "caf\u00e9/n.txt", false],
  ["an NFD path is taken out by an NFC negation", ["**", "!caf\u00e9/**"], "cafe\u0301/n.txt", false],
  ["a negation with a doubled slash", ["**", "!src//secret/**"], "src/secret/k.txt", false],
  ["a negation with a ./ part", ["**", "!src/./secret/**"], "src/secret/k.txt", false],
  ["a negation with a .. part", ["**", "!src/../src/secret/**"], "src/secret/k.txt", false],
  ["a negation whose .. follows a wildcard takes out everything", ["**", "!src/*/../secret/**"], "docs/a.md", false],
  ["a negation that climbs above the root takes out everything", ["**", "!../x/**"], "docs/a.md", false],
  ["a negation of the root itself (src/..) takes out everything", ["**", "!src/.."], "docs/a.md", false],
  ["an allowing pattern with a .. part names the same paths", ["docs/../src/**"], "src/a.ts", true],
  ["./ keeps a pattern anchored at the root", ["./.env"], "sub/.env", false],
  ["./.env still allows the root's .env", ["./.env"], ".env", true],
  ["an allowing pattern that climbs above the root allows nothing", ["../**"], "src/a.ts", false],
];

describe("allowed paths", () => {
  for (const [name, patterns, path, allowed] of CASES) {
    it(`${name}: ${JSON.stringify(patterns)} ${allowed ? "allows" : "refuses"} ${path}`, () => {
      expect(compileAllowedPaths(patterns).allows(path)).toBe(allowed);
    });
  }
});
