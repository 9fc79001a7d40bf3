import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Brief } from "../../core/brief/brief.js";
import { workItemsFromBriefs } from "../../core/brief/work-items-from-briefs.js";
import type { ClaimToken } from "../../core/claims/claim-token.js";
import type { EngineLoop, IdleSummary, Landing, RunResult } from "../../core/engine/engine-loop.js";
import type { WorkItem } from "../../core/engine/work-item.js";
import type { WorkerControl } from "../../core/engine/lazy-abort.js";
import type { BriefFolder } from "./read-brief-folder.js";
import { readBriefFolder } from "./read-brief-folder.js";

/** Runs one claimed brief; a process, or the dry-run stand-in. */
export type BriefDispatcher = (claim: ClaimToken, brief: Brief, tier: string, signal: AbortSignal) => Promise<RunResult>;

export interface BriefFolderLoopOptions {
  readonly briefsDir: string;
  readonly dispatcher: BriefDispatcher;
  /** Where landed results are written (`<dir>/<id>.json`); none in a dry run. */
  readonly resultsDir?: string;
  /** Told about invalid briefs the first time each is seen. */
  readonly onInvalid?: (folder: BriefFolder) => void;
  readonly onIdle?: (summary: IdleSummary) => void;
}

/** The local front of the engine: a folder of brief files is the queue. */
export class BriefFolderLoop implements EngineLoop<Brief> {
  readonly name = "local";
  /** Briefs that failed validation, by id: never claimed, and they fail the drain. */
  readonly invalid = new Set<string>();
  private reported = new Set<string>();

  constructor(private readonly options: BriefFolderLoopOptions) {}

  async selectQueue(_now: number): Promise<readonly WorkItem<Brief>[]> {
    const folder = await readBriefFolder(this.options.briefsDir);
    const fresh = folder.invalid.filter((id) => !this.reported.has(id));
    for (const id of folder.invalid) this.invalid.add(id);
    if (fresh.length > 0) {
      for (const id of fresh) this.reported.add(id);
      this.options.onInvalid?.({ ...folder, invalid: fresh });
    }
    return workItemsFromBriefs(folder.briefs);
  }

  tierPolicy(item: WorkItem<Brief>): string {
    return item.payload.tier;
  }

  dispatch(claim: ClaimToken, item: WorkItem<Brief>, tier: string, control: WorkerControl): Promise<RunResult> {
    return this.options.dispatcher(claim, item.payload, tier, control.signal);
  }

  async land(claim: ClaimToken, item: WorkItem<Brief>, landing: Landing): Promise<void> {
    if (this.options.resultsDir === undefined) return;
    await mkdir(this.options.resultsDir, { recursive: true });
    const record = { item: item.id, epoch: claim.epoch, holder: claim.holder, disposition: landing.disposition, stop: landing.result.stop, evidence: landing.result.evidence, note: landing.note };
    await writeFile(join(this.options.resultsDir, `${encodeURIComponent(item.id)}.json`), `${JSON.stringify(record, null, 2)}\n`);
  }

  onIdle(summary: IdleSummary): void {
    this.options.onIdle?.(summary);
  }
}
