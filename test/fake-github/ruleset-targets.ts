/**
 * Which refs a ruleset's `conditions.ref_name` covers, as GitHub documents it: `include` must match
 * (one pattern of it) and `exclude` must not; `~DEFAULT_BRANCH` is the default branch, `~ALL` every
 * branch; other patterns are fnmatch over the full ref name, where `*` stops at `/` and `**` does not
 * (https://docs.github.com/repositories/configuring-branches-and-merges-in-your-repository/managing-rulesets/creating-rulesets-for-a-repository#using-fnmatch-syntax).
 */
import type { RulesetRecord } from "./setup-records.js";
import type { RepoState } from "./state.js";

function fnmatch(pattern: string, ref: string): boolean {
  let source = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    if (c === "*" && pattern[i + 1] === "*") {
      source += ".*";
      i++;
    } else if (c === "*") source += "[^/]*";
    else if (c === "?") source += "[^/]";
    else source += c.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${source}$`).test(ref);
}

function matches(pattern: string, repo: RepoState, branch: string): boolean {
  if (pattern === "~ALL") return true;
  if (pattern === "~DEFAULT_BRANCH") return branch === repo.defaultBranch;
  return fnmatch(pattern, `refs/heads/${branch}`);
}

/** True when the branch ruleset covers this branch (whatever its enforcement). */
export function rulesetTargets(ruleset: RulesetRecord, repo: RepoState, branch: string): boolean {
  if (ruleset.target !== "branch") return false;
  return ruleset.include.some((p) => matches(p, repo, branch)) && !ruleset.exclude.some((p) => matches(p, repo, branch));
}
