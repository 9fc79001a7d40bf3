import type { Octokit } from "@octokit/rest";
import { parseWorkRecordMarker, workRecordCheckName } from "../../core/journal/work-record-marker.js";
import { trustedGateApps } from "../dashboard/gate-check-events.js";
import type { SchedulerReads, WorkRecord } from "./scheduler-github.js";

/** How many check runs one read looks at: one name per item and epoch leaves a handful (re-runs) at most. */
const MAX_RECORDS = 20;

/**
 * The `bosun/work` record of one run, read when the App lands that run or sees it landed (never on
 * an idle tick): the check runs named for the item and epoch on the run's head commit, one request
 * of at most 20. A record counts only when (1) the Bosun App itself posted it — GitHub names the
 * app on every check run and lets only that app update it, while `github-actions` is every
 * workflow, including those a pull request edits — and (2) it names this item, this epoch and
 * this run id, so an older run's record never lands a newer claim.
 */
export function octokitWorkRecordReads(octokit: Octokit, options: { readonly owner: string; readonly repo: string; readonly botLogin: string }): Pick<SchedulerReads, "workRecord"> {
  const { owner, repo } = options;
  // The apps the gate's reader believes are the ones believed here: the Bosun App alone.
  const trusted = new Set(trustedGateApps(options.botLogin).map((slug) => slug.toLowerCase()));
  return {
    async workRecord(issue, epoch, run) {
      const ignored: string[] = [];
      if (run.headSha === undefined) return { ignored: ["the run's head commit is unknown"] };
      const { data } = await octokit.rest.checks.listForRef({ owner, repo, ref: run.headSha, check_name: workRecordCheckName(String(issue), epoch), filter: "all", per_page: MAX_RECORDS });
      let best: { id: number; record: WorkRecord; costProblem: string | undefined } | undefined;
      for (const c of data.check_runs) {
        // github-actions is never Bosun, even where Bosun runs as an Action under its token.
        if (!trusted.has((c.app?.slug ?? "").toLowerCase())) {
          ignored.push("posted by an app that is not the Bosun App");
          continue;
        }
        if (c.status !== "completed" || c.head_sha !== run.headSha) continue;
        const parsed = parseWorkRecordMarker(c.output.summary);
        if (!parsed.ok) {
          ignored.push(parsed.reason);
          continue;
        }
        const { marker } = parsed;
        if (marker.item !== String(issue) || marker.epoch !== epoch) {
          ignored.push("names another item or epoch");
          continue;
        }
        if (marker.run !== run.id) {
          ignored.push("names another workflow run");
          continue;
        }
        // A re-run of the same run posts again: the newest record is the run's last word.
        if (best === undefined || c.id > best.id) best = { id: c.id, record: { stop: marker.stop, ...(marker.cost === null ? {} : { cost: marker.cost }) }, costProblem: parsed.costProblem };
      }
      if (best === undefined) return { ignored };
      return { record: best.record, ignored: best.costProblem === undefined ? ignored : [...ignored, best.costProblem] };
    },
  };
}
