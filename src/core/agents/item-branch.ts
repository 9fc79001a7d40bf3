/** The branch Bosun pushes an item's work to: `bosun/<issue>-<slug of the goal>`, the same at every epoch. */
export function itemBranch(issue: number, goal: string): string {
  const words = goal
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  let slug = words.slice(0, 40);
  // Cut at a word boundary when the cap fell inside a word.
  if (words.length > 40 && slug.includes("-")) slug = slug.slice(0, slug.lastIndexOf("-"));
  return slug === "" ? `bosun/${issue}` : `bosun/${issue}-${slug}`;
}

/** True when `branch` is Bosun's own branch for `issue` (what `itemBranch` names, whatever the slug). */
export function isItemBranch(branch: string, issue: number): boolean {
  return branch === `bosun/${issue}` || branch.startsWith(`bosun/${issue}-`);
}
