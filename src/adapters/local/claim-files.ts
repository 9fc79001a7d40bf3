import { randomBytes } from "node:crypto";
import { closeSync, fstatSync, openSync, readFileSync, readSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import type { ClaimToken, ClaimView, FencedResult } from "../../core/claims/claim-token.js";
import type { HolderProcess } from "./holder-process.js";

// The file primitives of the local claim store (file-claim-store.ts): its record format, reads
// that take a missing or half-written file as "none", and writes that are all or nothing.

/** A claim file's content: the lease end is the file's mtime plus `leaseMs`. */
export interface ClaimFile {
  readonly key: string;
  readonly holder: string;
  readonly epoch: number;
  readonly leaseMs: number;
  /** The hash of the brief this claim is for (`sha256:…`), when the claimer knows it. */
  readonly hash?: string;
  /** The process that took it: while it lives, its lapsed lease is its to renew, never another's to take. */
  readonly process?: HolderProcess;
}

/** A claim read back, with its lease end. */
export interface Live extends ClaimFile {
  readonly expiresAt: number;
}

/** Whether a token still holds the live claim: its epoch and holder, else stale or lost. */
export function checkFence(live: Live | undefined, token: ClaimToken): FencedResult {
  if (live === undefined) return { ok: false, reason: "lost", detail: `no live claim on ${token.key}` };
  if (live.epoch !== token.epoch) return { ok: false, reason: "stale", detail: `epoch ${token.epoch} is stale; ${live.holder} holds epoch ${live.epoch}` };
  if (live.holder !== token.holder) return { ok: false, reason: "stale", detail: `held by ${live.holder}` };
  return { ok: true };
}

/** The claim as the store's callers see it. */
export const view = (live: Live): ClaimView => ({ key: live.key, holder: live.holder, epoch: live.epoch, expiresAt: live.expiresAt });

/** The live claim in a file, or undefined when it is missing or unreadable (mid-write). */
export function readLive(path: string): Live | undefined {
  let fd: number | undefined;
  try {
    // One open: the lease end is the mtime of the very file whose content was read.
    fd = openSync(path, "r");
    const st = fstatSync(fd);
    const file = JSON.parse(readWhole(fd, st.size)) as ClaimFile;
    return { ...file, expiresAt: st.mtimeMs + file.leaseMs };
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) quietly(() => closeSync(fd as number));
  }
}

/** An open file's text, read to its end (`size` is what fstat said: the first read's length). */
function readWhole(fd: number, size: number): string {
  const chunks: Buffer[] = [];
  for (;;) {
    const chunk = Buffer.allocUnsafe(Math.max(size + 1, 4096));
    const n = readSync(fd, chunk, 0, chunk.length, null);
    if (n === 0) break;
    chunks.push(chunk.subarray(0, n));
    if (n < chunk.length) break;
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** A JSON file's content, or undefined when it is missing or unreadable. */
export function readJson<T>(path: string): T | undefined {
  try {
    return JSON.parse(readFileSync(path, "utf8")) as T;
  } catch {
    return undefined;
  }
}

/** Writes through a temp file and a rename: readers see the old content or the new, never half. */
export function writeAtomic(path: string, content: string): void {
  const tmp = `${path}.tmp-${nonce()}`;
  try {
    writeFileSync(tmp, content);
    renameSync(tmp, path);
  } catch (err) {
    quietly(() => unlinkSync(tmp));
    throw err;
  }
}

/**
 * A suffix for temp and history file names, unique across processes: a random part drawn once per
 * process, then a count. A fresh random draw for each (three an item) was a visible part of a
 * drain's time per item.
 */
const NONCE_PREFIX = randomBytes(6).toString("hex");
let nonces = 0;
export const nonce = (): string => `${NONCE_PREFIX}${(nonces++).toString(36)}`;

/** Runs a clean-up whose failure changes nothing (the file is already gone, or never was). */
export function quietly(action: () => void): void {
  try {
    action();
  } catch {
    // Nothing to undo.
  }
}

/** The action's value, or undefined when it throws (a missing file read as "none"). */
export function attempt<T>(action: () => T): T | undefined {
  try {
    return action();
  } catch {
    return undefined;
  }
}
