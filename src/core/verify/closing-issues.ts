// GitHub's closing keywords (docs: "Linking a pull request to an issue"), optionally followed by ':'.
// The separator is `:` with optional spaces, or spaces alone: `\s*:?\s+` could split a run of
// spaces two ways and backtracked quadratically (a PR body of "fix" and 40,000 spaces took 7 s).
const CLOSING =
  /\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)(?:\s*:\s*|\s+)(?:(?:https?:\/\/[^\s/]+\/)?([\w.-]+)\/([\w.-]+)(?:#|\/issues\/)|#)(\d+)\b/gi;

/**
 * The issue numbers a pull request body closes in this repository (`Closes #12`, `fixes: #3`,
 * `Resolves owner/repo#4`, `Fixes https://github.com/owner/repo/issues/5`), in order, without
 * repeats. References to another repository are ignored: this repository cannot land them.
 *
 * @example closingIssues("Fixes #12 and closes #3", { owner: "o", repo: "r" }) // [12, 3]
 */
export function closingIssues(body: string | null | undefined, repo: { readonly owner: string; readonly repo: string }): number[] {
  if (body === null || body === undefined) return [];
  const found: number[] = [];
  // Code blocks and HTML comments (PR templates) are not instructions to close anything.
  const text = withoutIgnored(body);
  for (const m of text.matchAll(CLOSING)) {
    const [, owner, name, num] = m;
    if (owner !== undefined && name !== undefined) {
      if (owner.toLowerCase() !== repo.owner.toLowerCase() || name.toLowerCase() !== repo.repo.toLowerCase()) continue;
    }
    const n = Number(num);
    if (Number.isSafeInteger(n) && n > 0 && !found.includes(n)) found.push(n);
  }
  return found;
}

/**
 * The body without ``` code blocks and <!-- HTML comments -->, in one pass: the lazy patterns
 * used before rescanned the rest of the body from every unclosed opener (40,000 `<!--` took 4 s).
 * An opener with no closer is kept as text, and once one kind has no closer left, later openers
 * of that kind are not searched for again.
 */
function withoutIgnored(body: string): string {
  const kinds = [
    { open: "```", close: "```", exhausted: false },
    { open: "<!--", close: "-->", exhausted: false },
  ];
  let out = "";
  let pos = 0;
  for (;;) {
    let next = -1;
    let kind: (typeof kinds)[number] | undefined;
    for (const k of kinds) {
      if (k.exhausted) continue;
      const at = body.indexOf(k.open, pos);
      if (at < 0) k.exhausted = true;
      else if (next < 0 || at < next) {
        next = at;
        kind = k;
      }
    }
    if (kind === undefined) return out + body.slice(pos);
    const end = body.indexOf(kind.close, next + kind.open.length);
    if (end < 0) {
      kind.exhausted = true;
      continue;
    }
    out += body.slice(pos, next);
    pos = end + kind.close.length;
  }
}
