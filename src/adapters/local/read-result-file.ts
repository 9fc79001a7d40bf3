import { parseStop } from "../../core/stop/parse-stop.js";
import { readBoundedFile } from "./read-bounded-file.js";

/** The most of a result file that is read: a stop is a small JSON object. */
export const MAX_RESULT_BYTES = 1024 * 1024;

/**
 * Reads the stop a worker wrote to $BOSUN_RESULT, through the reader that never blocks: a FIFO,
 * a device, a folder or a symbolic link there is no stop, and at most MAX_RESULT_BYTES are read.
 * Undefined when the worker wrote none.
 */
export function readResultFile(path: string): { stop: ReturnType<typeof parseStop>; json?: unknown } | undefined {
  const read = readBoundedFile(path, { most: MAX_RESULT_BYTES, symlinks: "refuse" });
  if (!read.ok) return read.missing ? undefined : { stop: { ok: false, problem: read.problem } };
  let json: unknown;
  try {
    json = JSON.parse(read.text);
  } catch (err) {
    return { stop: { ok: false, problem: `not JSON${whereNotJson(err)}` } };
  }
  return { stop: parseStop(json), json };
}

/**
 * Where the parser gave up, never what it read there: V8 quotes the text around a bad token
 * (`Unexpected token 's', "sk-Hostile"... is not valid JSON`), and a secret there reached the
 * stop reason, the claim record and the journal as a prefix that masking, which matches the
 * whole value only, could not recognise.
 */
function whereNotJson(err: unknown): string {
  const at = err instanceof Error ? /at position (\d+)/.exec(err.message) : null;
  return at === null ? "" : ` at character ${at[1]}`;
}
