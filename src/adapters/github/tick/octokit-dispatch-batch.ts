import type { Octokit } from "@octokit/rest";
import { batchRunTitle } from "../../../core/scheduler/stop-from-run.js";
import { dispatchWorkflowRun, type WorkflowRunTarget } from "./dispatch-workflow-run.js";
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
export function octokitDispatchBatch(octokit: Octokit, options: WorkflowRunTarget, runIds: Map<string, number>): TickWrites["dispatchBatch"] {
  return async function dispatchBatch(dispatch, items) {
    if (items.length === 0 || items.length > BATCH_MOST) throw new Error(`a batched dispatch carries 1 to ${BATCH_MOST} items, not ${items.length}`);
    const title = batchRunTitle(items);
    const inputs = { title: title.slice("bosun ".length), items: JSON.stringify(items.map((i) => ({ item: i.item, epoch: String(i.epoch), brief_hash: i.briefHash }))) };
    return dispatchWorkflowRun(octokit, options, dispatch, { inputs, title, issue: Number(items[0]?.item), keys: items.map((i) => `${i.item}:${i.epoch}`) }, runIds);
  };
}
