/** Is `.github/bosun.yml` there and valid, by the App's own parser (`bosun config check`)? */
import { formatConfigProblems } from "../config/format-config-problems.js";
import { parseConfig } from "../config/parse-config.js";
import type { SetupFacts } from "./setup-facts.js";
import { couldNotCheck, ok, problem, refusal, type SetupFinding } from "./setup-finding.js";

export function checkConfig(facts: SetupFacts): SetupFinding {
  const read = facts.config;
  if (!read.ok) {
    const { message, fix } = refusal(`.github/bosun.yml at ${facts.defaultBranch}`, read, "use a token that can read the repository's contents (Contents: read)");
    return couldNotCheck("config", message, fix);
  }
  if (read.value === null) return problem("config", `no .github/bosun.yml on ${facts.defaultBranch}: the App runs on defaults that dispatch nothing`, "write one with `npx bosun init` (or copy docs/app.md's example), check it with `npx bosun config check`, and merge it");
  const parsed = parseConfig(read.value);
  if (parsed.ok) return ok("config", `.github/bosun.yml on ${facts.defaultBranch} is valid`);
  return problem("config", `.github/bosun.yml on ${facts.defaultBranch} is invalid: ${formatConfigProblems(parsed.problems).join("; ")}`, "fix each field named (`npx bosun config check` prints the same problems) and merge the fix");
}
