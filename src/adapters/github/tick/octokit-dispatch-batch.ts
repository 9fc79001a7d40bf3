import type { Octokit } from "@octokit/rest";
import { statusOf } from "../status-of.js";
import { normalizeLogin } from "../../../core/separation/identity.js";
import { batchRunTitle } from "../../../core/scheduler/stop-from-run.js";
import { DispatchOutcomeUnknown } from "./dispatch-outcome-unknown.js";
import { findDispatchedRun } from "./find-dispatched-run.js";
import type { TickWrites } from "./tick-github.js";

/**
 * The most items one batched run carries. Its run name lists them all (`bosun #12 epoch 3, …`), and
 * every replica matches runs to items by that name: ten keep it short enough to read whole.
 */
export const BATCH_MOST = 10;

/**
 * A `workflow` pool with `batch: true`: the items granted together go out as ONE
 * `workflow_dispatch` (inputs `title` and `items`), whose workflow runs one matrix leg per item.
 * A dispatch is a content-creating request (GitHub's secondary limit: 500 an hour per
 * installation): one a batch instead of one an item takes the App's share per item from 2.7 to
 * about 1.95 (`npm run bench -- api-economy`; each leg's land job spends two more of the same
 * installation's). The run it started is recorded for every item in `runIds` (`item:epoch` → run id).
 */
export function octokitDispatchBatch(octokit: Octokit, options: { readonly owner: string; readonly repo: string; readonly defaultBranch: string; readonly botLogin: string; readonly now: () => number }, runIds: Map<string, number>): TickWrites["dispatchBatch"] {
  const { owner, repo } = options;
  return async function dispatchBatch(dispatch, items) {
    if (items.length === 0 || items.length > BATCH_MOST) throw new Error(`a batched dispatch carries 1 to ${BATCH_MOST} items, not ${items.length}`);
    const title = batchRunTitle(items);
    const inputs = { title: title.slice("bosun ".length), items: JSON.stringify(items.map((i) => ({ item: i.item, epoch: String(i.epoch), brief_hash: i.briefHash }))) };
    const remember = (id: number): void => {
      for (const i of items) runIds.set(`${i.item}:${i.epoch}`, id);
    };
    const sentAt = options.now();
    let answer;
    try {
      answer = await octokit.request("POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches", { owner, repo, workflow_id: dispatch.workflow, ref: dispatch.ref ?? options.defaultBranch, inputs, return_run_details: true });
    } catch (err) {
      // As for one item (octokit-dispatch.ts): a 4xx started nothing; anything else may have
      // started the run, which its name finds, or the claims stay held until it shows.
      const code = statusOf(err);
      if (code !== undefined && code < 500) throw err;
      const started = await findDispatchedRun(octokit, { owner, repo, bot: normalizeLogin(options.botLogin), since: sentAt }, dispatch.workflow, title);
      if (started === undefined) throw new DispatchOutcomeUnknown(Number(items[0]?.item), err);
      remember(started.id);
      return { runId: started.id, url: started.url };
    }
    const details = answer.status === 200 ? (answer.data as unknown as { workflow_run_id?: number; html_url?: string }) : {};
    if (details.workflow_run_id !== undefined) remember(details.workflow_run_id);
    return { ...(details.workflow_run_id === undefined ? {} : { runId: details.workflow_run_id }), ...(details.html_url === undefined ? {} : { url: details.html_url }) };
  };
}
