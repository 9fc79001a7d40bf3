/**
 * Why a pull request's base is not one the gate and separation judge, or undefined when it is.
 * A verdict is a check run or status on the head SHA, and GitHub shows it on every PR with that
 * head: a pass earned against a base the agent created (so any diff looks small and in bounds)
 * would then stand on a PR into main with the same head. So only PRs into the default branch, or
 * a branch in `protected-branches`, are judged; anything else is could-not-check.
 */
export function unjudgedBase(baseRef: string | undefined, defaultBranch: string | undefined, protectedBranches: readonly string[]): string | undefined {
  const allowed = protectedBranches.length > 0 ? protectedBranches : defaultBranch === undefined ? [] : [defaultBranch];
  if (baseRef !== undefined && allowed.includes(baseRef)) return undefined;
  return `the pull request merges into '${baseRef ?? "(unknown)"}', not ${allowed.length === 0 ? "a branch the gate knows to be protected" : allowed.map((b) => `'${b}'`).join(" or ")}: its verdict would sit on a head SHA another pull request into a protected branch can carry, so only pull requests into ${protectedBranches.length > 0 ? "the protected-branches" : "the default branch"} are judged`;
}
