/** A branch named for an issue: `bosun/12`, `bosun/12-x`, GitHub's "Create a branch" `12-title`, `copilot/fix-12`. */
const ISSUE_BRANCH = /^(?:bosun\/(\d+)(?:\b|$)|(\d+)-|copilot\/fix-(\d+)$)/;

/** The issue a branch name is for, if any. */
export function issueOfBranch(name: string): number | undefined {
  const m = ISSUE_BRANCH.exec(name);
  const n = Number(m?.[1] ?? m?.[2] ?? m?.[3]);
  return Number.isInteger(n) && n > 0 ? n : undefined;
}
