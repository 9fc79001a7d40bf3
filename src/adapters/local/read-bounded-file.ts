import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";

/** How a file that Bosun does not control is read. */
export interface BoundedReadOptions {
  /** The most bytes read; a longer file is refused, or cut to its last `most` bytes with `over: "tail"`. */
  readonly most: number;
  /** A symbolic link is refused unless followed (a worker's files: refused; a path the user typed: followed). */
  readonly symlinks?: "follow" | "refuse";
  readonly over?: "refuse" | "tail";
}

export type BoundedRead =
  | { readonly ok: true; readonly text: string; /** Bytes left out at the start (`over: "tail"`). */ readonly skipped: number; readonly mtimeMs: number }
  | {
      readonly ok: false;
      /** No such file: often not a problem at all. */
      readonly missing: boolean;
      readonly problem: string;
      /** The errno code, or `special` (not a regular file) or `too-long`. */
      readonly code: string;
    };

/**
 * The one reader for a file Bosun does not control (a worker's result or output, a brief, a
 * configuration, a trace): it never blocks and never holds more than its bound. Opened
 * non-blocking and read only when it is a regular file: a FIFO left where a file was expected once
 * hung a drain beyond two SIGTERMs, and `/dev/zero` filled memory. The size is taken from the open
 * file, and one byte past the bound is asked for, so a file that grows while read is still caught.
 */
export function readBoundedFile(path: string, options: BoundedReadOptions): BoundedRead {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | (options.symlinks === "follow" ? 0 : constants.O_NOFOLLOW));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return { ok: false, missing: true, problem: "no such file", code };
    if (code === "ELOOP" && options.symlinks !== "follow") return { ok: false, missing: false, problem: "a symbolic link, not a regular file", code: "special" };
    return { ok: false, missing: false, problem: `unreadable (${code ?? String(err)})`, code: code ?? "unknown" };
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { ok: false, missing: false, problem: `${kindOf(st)}, not a regular file`, code: "special" };
    const tail = options.over === "tail" && st.size > options.most;
    if (!tail && st.size > options.most) return { ok: false, missing: false, problem: tooLong(options.most), code: "too-long" };
    const start = tail ? st.size - options.most : 0;
    const buffer = Buffer.alloc(Math.min(st.size, options.most) + 1);
    let read = 0;
    for (let n = -1; n !== 0 && read < buffer.length; read += n) n = readSync(fd, buffer, read, buffer.length - read, start + read);
    if (read > options.most) {
      if (!tail) return { ok: false, missing: false, problem: tooLong(options.most), code: "too-long" };
      read = options.most;
    }
    return { ok: true, text: buffer.subarray(0, read).toString("utf8"), skipped: start, mtimeMs: st.mtimeMs };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { ok: false, missing: false, problem: `unreadable (${code ?? String(err)})`, code: code ?? "unknown" };
  } finally {
    closeSync(fd);
  }
}

function kindOf(st: ReturnType<typeof fstatSync>): string {
  if (st.isFIFO()) return "a FIFO";
  if (st.isDirectory()) return "a folder";
  if (st.isCharacterDevice() || st.isBlockDevice()) return "a device";
  if (st.isSocket()) return "a socket";
  return "a special file";
}

function tooLong(most: number): string {
  return `more than ${most} bytes; at most ${most} are read`;
}
