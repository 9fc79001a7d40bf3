import type { Octokit } from "@octokit/rest";
import type { RunCost } from "../core/journal/run-cost.js";
import { renderWorkRecordMarker, workRecordCheckName } from "../core/journal/work-record-marker.js";
import type { Stop } from "../core/stop/stop.js";
import type { ActionIo } from "./action-io.js";

/** The run a land job speaks for: its item and epoch, its own workflow run, the commit it was dispatched at. */
export interface WorkRecordTarget {
  readonly owner: string;
  readonly repo: string;
  readonly item: number;
  readonly epoch: number;
  /** GITHUB_RUN_ID. */
  readonly runId: number;
  /** GITHUB_SHA: the commit the run was dispatched at, which is the workflow run's head_sha. */
  readonly sha: string;
}

/**
 * Publishes what a `work` run landed — its stop and cost — as a completed check run named for the
 * item and epoch, on the commit the run was dispatched at, with the App's token. A check run is
 * the one record on GitHub that names who wrote it and that nobody else can edit: only GitHub
 * Apps create check runs, GitHub names the app on each, and only the app that created one may
 * update it. So the App believes a record only when it is its own (docs/app.md, "Cost on LAND").
 * The conclusion is `neutral` whatever the stop: this is a record, not a verdict, and a red mark
 * on the default branch's commit would say something about that commit it never judged.
 */
export async function postWorkRecord(octokit: Octokit, target: WorkRecordTarget, stop: Stop, cost: RunCost | undefined): Promise<void> {
  const item = String(target.item);
  const marker = renderWorkRecordMarker({ v: 1, item, epoch: target.epoch, run: target.runId, stop, cost: cost ?? null });
  const units = cost === undefined ? "no cost reported" : [`${cost.wall_clock_s} s`, cost.tokens === undefined ? undefined : `${cost.tokens} tokens`, cost.usd === undefined ? undefined : `$${cost.usd}`].filter((u) => u !== undefined).join(", ");
  await octokit.rest.checks.create({
    owner: target.owner,
    repo: target.repo,
    name: workRecordCheckName(item, target.epoch),
    head_sha: target.sha,
    external_id: `${item}:${target.epoch}:${target.runId}`,
    status: "completed",
    conclusion: "neutral",
    output: {
      title: `#${item} epoch ${target.epoch}: ${stop.kind} (${units})`.slice(0, 250),
      // The marker first: the App reads the first line only, and nothing the agent wrote comes before it.
      // Only the stop's kind as text: its reason is the agent's to write, and stays inside the marker's JSON.
      summary: `${marker}\nBosun's record of work run ${target.runId} on #${item} at epoch ${target.epoch}: stop \`${stop.kind}\`; ${units}. The Bosun App journals it on LAND for the fleet metrics.`,
    },
  });
}

/** Posts the run's `bosun/work` record; returns the summary's line about it (a failure is a warning, never a failed land). */
export async function publishWorkRecord(io: ActionIo, octokit: Octokit, ctx: { readonly item: number; readonly epoch: number }, stop: Stop, cost: RunCost | undefined): Promise<string> {
  if (io.event.sha === "" || io.event.runId === 0) {
    io.log.warning("bosun work: no GITHUB_SHA or GITHUB_RUN_ID: no bosun/work record posted, so the App counts this run's cost as missing");
    return "No `bosun/work` record: GITHUB_SHA or GITHUB_RUN_ID is not set.";
  }
  try {
    await postWorkRecord(octokit, { ...io.event.repo, item: ctx.item, epoch: ctx.epoch, runId: io.event.runId, sha: io.event.sha }, stop, cost);
    return `Recorded for the App as the check run \`${workRecordCheckName(String(ctx.item), ctx.epoch)}\` on ${io.event.sha.slice(0, 7)}.`;
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    io.log.warning(`bosun work: could not post the bosun/work record (${why}); the App counts this run's cost as missing (the land job's token needs checks: write)`);
    return `No \`bosun/work\` record: ${why.replace(/[|`]/g, "")}`;
  }
}
