// GitHub's closing keywords (docs: "Linking a pull request to an issue"), optionally followed by ':'.
const CLOSING =
  /\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\s*:?\s+(?:(?:https?:\/\/[^\s/]+\/)?([\w.-]+)\/([\w.-]+)(?:#|\/issues\/)|#)(\d+)\b/gi;

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
  const text = body.replace(/```[\s\S]*?```/g, "").replace(/<!--[\s\S]*?-->/g, "");
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
