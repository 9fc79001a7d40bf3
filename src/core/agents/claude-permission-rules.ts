/**
 * Claude Code permission rules for a brief's allowed paths. Claude Code reads `Edit(path)` rules
 * with gitignore-style patterns relative to the working directory; its `Edit` rules cover every
 * built-in tool that edits files. A gitignore pattern without a slash matches at any depth, so it
 * also gets a form under any folder; a negation (`!x`) becomes a deny rule, which wins over any allow.
 */
export function claudeEditRules(paths: readonly string[]): { allow: string[]; deny: string[] } {
  const allow: string[] = [];
  const deny: string[] = [];
  for (const raw of paths) {
    const negated = raw.startsWith("!");
    const pattern = negated ? raw.slice(1) : raw;
    const into = negated ? deny : allow;
    for (const p of claudeForms(pattern)) into.push(`Edit(${p})`);
  }
  return { allow: [...new Set(allow)], deny: [...new Set(deny)] };
}

function claudeForms(pattern: string): string[] {
  // `docs/` is a folder and everything in it.
  const folder = pattern.endsWith("/") ? `${pattern}**` : pattern;
  // A leading `/` anchors to the repository root in gitignore; `./` says the same to Claude Code
  // (whose `/path` means "relative to the settings file").
  if (folder.startsWith("/")) return [`./${folder.slice(1)}`];
  // gitignore: a slash at the start or in the middle anchors the pattern; only a slash-free one
  // (trailing slash aside) matches at any depth.
  if (!pattern.replace(/\/$/, "").includes("/")) return [folder, `**/${folder}`];
  return [folder];
}
