import { readdirSync } from "node:fs";
import { join } from "node:path";
import type { SettledOutcome } from "../../core/claims/claim-token.js";
import { type ClaimFile, type Live, readJson, readLive } from "./claim-files.js";

/** Starts the outcome (and a denial's detail) of a key settled for other content than the claimer's. */
export const SETTLED_FOR_ANOTHER_BRIEF = "settled for another brief";
/** Starts the outcome of a key whose latest claim (live, or ended and released for a retry) was for other content. */
export const CLAIMED_FOR_ANOTHER_BRIEF = "claimed for another brief";

/** What a key's folder says: its live claim, its settled outcome, its highest epoch, its retry time. */
export interface KeyFolder {
  readonly live?: Live;
  readonly settled?: SettledOutcome;
  /** The highest epoch seen, the live claim's included. */
  readonly epoch: number;
  /** The highest epoch of the folder's ended, released and voided files. */
  readonly historyEpoch: number;
  readonly notBefore?: number;
  /** The latest ended claim, when the content check read it: a later read of the folder need not read it again. */
  readonly ended?: EndedClaim;
}

/** An ended claim file (`<epoch>.ended`, `<epoch>.reclaimed-…`) as read: its name and its content. */
export interface EndedClaim {
  readonly name: string;
  readonly file: ClaimFile | undefined;
}

/**
 * Reads a key's folder (file-claim-store.ts). Given `content` (the hash of what the claimer's key
 * stands for, asked only when needed), an outcome settled for other content than that is read as a
 * clear failure, not as its own. `withLive` false: the live claim is not read (the caller just wrote it).
 * `known`: the latest ended claim an earlier read of this folder read; while it is still the latest,
 * it is taken as read (an ended claim file, once in place, is never rewritten).
 */
export function readKeyFolder(dir: string, content: (() => string | undefined) | undefined, withLive = true, known?: EndedClaim): KeyFolder {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return { epoch: 0, historyEpoch: 0 };
  }
  let historyEpoch = 0;
  let lastReleased = -1;
  for (const name of names) {
    const n = Number(/^(\d+)\./.exec(name)?.[1] ?? NaN);
    if (Number.isFinite(n)) historyEpoch = Math.max(historyEpoch, n);
    if (/^\d+\.released$/.test(name)) lastReleased = Math.max(lastReleased, n);
  }
  const live = withLive && names.includes("claim") ? readLive(join(dir, "claim")) : undefined;
  const recorded = names.includes("settled") ? readJson<SettledOutcome & { hash?: string }>(join(dir, "settled")) : undefined;
  let settled = recorded === undefined || content === undefined ? recorded : asSettledFor(recorded, content(), dir);
  // Not settled yet, but its latest claim was for other content (a drain whose brief of this id
  // waits out a retry, or runs now): this content is not that item. Taking the next epoch would
  // run it on the other brief's attempts and leave that brief's retry refused as settled.
  let ended: EndedClaim | undefined;
  if (settled === undefined && content !== undefined) {
    const hash = content();
    if (hash !== undefined && live === undefined) ended = latestEnded(names, dir, known);
    settled = claimedForOther(live ?? ended?.file, dir, hash);
  }
  const released = lastReleased >= 0 ? readJson<{ notBefore: number }>(join(dir, `${lastReleased}.released`)) : undefined;
  return {
    epoch: Math.max(historyEpoch, live?.epoch ?? 0),
    historyEpoch,
    ...(live === undefined ? {} : { live }),
    ...(settled === undefined ? {} : { settled }),
    ...(released === undefined || lastReleased < historyEpoch ? {} : { notBefore: released.notBefore }),
    ...(ended === undefined ? {} : { ended }),
  };
}

/**
 * A settled record as the content `hash` sees it: its own outcome when written for that content (or
 * when either side has no hash: records older than hashes, a claimer that knows none), else a
 * failure for a human that says what happened and how to go on.
 */
function asSettledFor(recorded: SettledOutcome & { hash?: string }, hash: string | undefined, dir: string): SettledOutcome {
  if (recorded.hash === undefined || hash === undefined || recorded.hash === hash) return recorded;
  return {
    ok: false,
    disposition: "human",
    summary: `${SETTLED_FOR_ANOTHER_BRIEF}: another brief with this claim key settled in ${dir} (${recorded.hash.slice(0, 19)}…, ${recorded.ok ? "ok" : "not ok"}), not this one (${hash.slice(0, 19)}…): not run; give it another id or claim_key, or remove that folder to run it`,
  };
}

/** The ended claim of the highest epoch among `names`, read unless it is the one `known` holds. */
function latestEnded(names: readonly string[], dir: string, known: EndedClaim | undefined): EndedClaim | undefined {
  let best = -1;
  let name: string | undefined;
  for (const n of names) {
    const m = /^(\d+)\.(ended|reclaimed-.*)$/.exec(n);
    if (m !== null && Number(m[1]) > best) [best, name] = [Number(m[1]), n];
  }
  if (name === undefined) return undefined;
  return name === known?.name ? known : { name, file: readJson<ClaimFile>(join(dir, name)) };
}

/**
 * The outcome a claimer of content `hash` reads when the key's latest claim — the live one, else the
 * highest epoch that ended — names other content; undefined when it names the same, or either has none.
 */
function claimedForOther(latest: ClaimFile | undefined, dir: string, hash: string | undefined): SettledOutcome | undefined {
  if (hash === undefined) return undefined;
  if (latest?.hash === undefined || latest.hash === hash) return undefined;
  return {
    ok: false,
    disposition: "human",
    summary: `${CLAIMED_FOR_ANOTHER_BRIEF}: another brief with this claim key was claimed in ${dir} (epoch ${latest.epoch}, ${latest.hash.slice(0, 19)}…), not this one (${hash.slice(0, 19)}…): not run; give it another id or claim_key, or let that one finish`,
  };
}
