/** Do Bosun's labels exist? A maintainer can only pick an existing label in GitHub's label menu. */
import { DEFAULT_CONFIG, type BosunConfig } from "../config/bosun-config.js";
import { POOL_LABEL_PREFIX } from "../config/labels.js";
import { parseConfig } from "../config/parse-config.js";
import type { SetupFacts } from "./setup-facts.js";
import { couldNotCheck, ok, problem, refusal, type SetupFinding } from "./setup-finding.js";

/** The label names a configuration uses: its roles, `P0`..`P4`, and `pool/<name>` per pool (as the App creates them). */
export function labelNamesOf(config: BosunConfig): string[] {
  return [...Object.values(config.labels), ...[0, 1, 2, 3, 4].map((b) => `P${b}`), ...Object.keys(config.pools).map((p) => `${POOL_LABEL_PREFIX}${p}`)];
}

export function checkLabels(facts: SetupFacts): SetupFinding {
  const read = facts.labels;
  if (!read.ok) {
    const { message, fix } = refusal("the repository's labels", read, "use a token that can read the repository's labels (Issues: read or Metadata: read)");
    return couldNotCheck("labels", message, fix);
  }
  const parsed = facts.config.ok && facts.config.value !== null ? parseConfig(facts.config.value) : undefined;
  const config = parsed?.ok === true ? parsed.config : DEFAULT_CONFIG;
  const have = new Set(read.value.map((l) => l.toLowerCase()));
  const missing = labelNamesOf(config).filter((l) => !have.has(l.toLowerCase()));
  if (missing.length === 0) return ok("labels", "every label Bosun uses exists");
  return problem(
    "labels",
    `missing label${missing.length === 1 ? "" : "s"}: ${missing.join(", ")} (GitHub's label menu offers only existing labels)`,
    `the App creates them on its first intake; to create them now: ${missing.map((l) => `gh label create ${JSON.stringify(l)}`).join("; ")}`,
  );
}
