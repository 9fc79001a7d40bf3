import { lstatSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Brief } from "../../core/brief/brief.js";
import { briefHash } from "../../core/brief/parse-brief.js";
import { workItemsFromBriefs } from "../../core/brief/work-items-from-briefs.js";
import type { ClaimToken } from "../../core/claims/claim-token.js";
import type { EngineLoop, IdleSummary, Landing, RunResult, RunShare } from "../../core/engine/engine-loop.js";
import type { WorkItem } from "../../core/engine/work-item.js";
import type { WorkerControl } from "../../core/engine/lazy-abort.js";
import type { BriefFolder, BriefParseCache } from "./read-brief-folder.js";
import { BriefFolderError, readBriefFolder } from "./read-brief-folder.js";

/** Runs one claimed brief; a process, or the dry-run stand-in. */
export type BriefDispatcher = (claim: ClaimToken, brief: Brief, tier: string, signal: AbortSignal, share?: RunShare) => Promise<RunResult>;

export interface BriefFolderLoopOptions {
  readonly briefsDir: string;
  readonly dispatcher: BriefDispatcher;
  /** Where landed results are written (`<dir>/<id>.json`); none in a dry run. */
  readonly resultsDir?: string;
  /** Told about invalid briefs the first time each is seen. */
  readonly onInvalid?: (folder: BriefFolder) => void;
  readonly onIdle?: (summary: IdleSummary) => void;
  /**
   * Told when the drain cannot go on (the briefs folder vanished, the state folder is full or
   * gone): the caller stops the engine, which releases every claim, and exits non-zero.
   */
  readonly onFault?: (message: string) => void;
}

/** The local front of the engine: a folder of brief files is the queue. */
export class BriefFolderLoop implements EngineLoop<Brief> {
  readonly name = "local";
  /** Briefs that failed validation, by id: never claimed, and they fail the drain. */
  readonly invalid = new Set<string>();
  /** Briefs removed from the folder before their turn came: claimed, never run. */
  readonly removed = new Set<string>();
  private reported = new Set<string>();
  private paths = new Map<string, string>();
  /** The latest brief read for each claim key, and hashes computed once per brief read. */
  private byKey = new Map<string, Brief>();
  private hashes = new WeakMap<Brief, string>();
  private readonly writing = new Set<Promise<void>>();
  /** Briefs parsed by the last folder read, by file: an unchanged file is not parsed again. */
  private readonly parsed: BriefParseCache = new Map();

  constructor(private readonly options: BriefFolderLoopOptions) {}

  async selectQueue(_now: number): Promise<readonly WorkItem<Brief>[]> {
    let folder: BriefFolder;
    try {
      folder = await readBriefFolder(this.options.briefsDir, this.parsed);
    } catch (err) {
      if (!(err instanceof BriefFolderError)) throw err;
      this.options.onFault?.(err.message);
      return [];
    }
    for (const [id, path] of folder.paths) this.paths.set(id, path);
    for (const queued of folder.briefs) this.byKey.set(queued.brief.claim_key, queued.brief);
    const fresh = folder.invalid.filter((id) => !this.reported.has(id));
    for (const id of folder.invalid) this.invalid.add(id);
    if (fresh.length > 0) {
      for (const id of fresh) this.reported.add(id);
      this.options.onInvalid?.({ ...folder, invalid: fresh });
    }
    return workItemsFromBriefs(folder.briefs);
  }

  /** The hash of the brief read for a claim key (what the claim store records), if one was read. */
  contentOf(claimKey: string): string | undefined {
    const brief = this.byKey.get(claimKey);
    if (brief === undefined) return undefined;
    let hash = this.hashes.get(brief);
    if (hash === undefined) this.hashes.set(brief, (hash = briefHash(brief)));
    return hash;
  }

  tierPolicy(item: WorkItem<Brief>): string {
    return item.payload.tier;
  }

  // The folder is the queue: a brief deleted since the queue was read is not run. Synchronous: it
  // sits on the engine's one path from a grant to the dispatch, where a trip through the thread
  // pool per item made a drain of trivial workers wait on the pool.
  async withdrawn(item: WorkItem<Brief>): Promise<string | undefined> {
    const path = this.paths.get(item.id);
    if (path === undefined || exists(path)) return undefined;
    this.removed.add(item.id);
    return `${path} was removed from the briefs folder before it ran: not run`;
  }

  async dispatch(claim: ClaimToken, item: WorkItem<Brief>, tier: string, control: WorkerControl, share?: RunShare): Promise<RunResult> {
    // The run's share is what it reserved; with no cap in force, its brief's own money cap still is one.
    const usd = share?.usd ?? item.payload.budget.usd;
    return usd === undefined ? this.options.dispatcher(claim, item.payload, tier, control.signal) : this.options.dispatcher(claim, item.payload, tier, control.signal, { usd });
  }

  /**
   * Writes the landed result in the background: the claim store already holds the outcome and the
   * journal the LAND, and creating a file can take a millisecond on a busy disk — on the engine's
   * path from one landing to the next claim, that was the drain's pace. `flushed()` waits for them.
   */
  async land(claim: ClaimToken, item: WorkItem<Brief>, landing: Landing): Promise<void> {
    const dir = this.options.resultsDir;
    if (dir === undefined) return;
    const record = { item: item.id, epoch: claim.epoch, holder: claim.holder, disposition: landing.disposition, stop: landing.result.stop, evidence: landing.result.evidence, note: landing.note };
    const path = join(dir, `${encodeURIComponent(item.id)}.json`);
    const text = `${JSON.stringify(record, null, 2)}\n`;
    const write: Promise<void> = writeResult(dir, path, text)
      .catch((err: unknown) => this.options.onFault?.(`cannot write ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`))
      .finally(() => this.writing.delete(write));
    this.writing.add(write);
  }

  /** Resolves once every result file landed so far is written (or its failure reported). */
  async flushed(): Promise<void> {
    while (this.writing.size > 0) await Promise.all([...this.writing]);
  }

  onIdle(summary: IdleSummary): void {
    this.options.onIdle?.(summary);
  }
}

async function writeResult(dir: string, path: string, text: string): Promise<void> {
  try {
    await writeFile(path, text);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    // The first landing, or the folder was removed: make it and write again.
    await mkdir(dir, { recursive: true });
    await writeFile(path, text);
  }
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== "ENOENT";
  }
}
