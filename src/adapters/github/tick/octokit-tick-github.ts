import type { Octokit } from "@octokit/rest";
import { octokitIssueReads } from "./octokit-issue-reads.js";
import { octokitPullReads } from "./octokit-pull-reads.js";
import type { OctokitTickOptions } from "./octokit-tick-options.js";
import { octokitTickShared } from "./octokit-tick-shared.js";
import { octokitTickWrites } from "./octokit-tick-writes.js";
import type { TickGitHub } from "./tick-github.js";

// Exported from here too: the App names the gate's check run, and callers the options, through this entry point.
export { GATE_CHECK_NAME } from "./gate-check-name.js";
export type { OctokitTickOptions } from "./octokit-tick-options.js";

/**
 * The tick's reads and writes over Octokit, for one repository. List reads are conditional
 * (ETag): a tick that finds nothing changed costs 304s, which do not count against the rate limit.
 * Made of three parts, each keeping its own caches, over one shared ETag cache and one record of
 * the runs this process dispatched. A method that calls another (`approvals` → `approval`,
 * `evidence` → `linkedPulls`) calls it through the object answered here.
 */
export function octokitTickGitHub(octokit: Octokit, options: OctokitTickOptions): TickGitHub {
  const shared = octokitTickShared(options);
  return {
    ...octokitIssueReads(octokit, options, shared),
    ...octokitPullReads(octokit, options, shared),
    ...octokitTickWrites(octokit, options, shared),
  };
}
