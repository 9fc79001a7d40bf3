import { importBeadsCsv } from "../../core/replay/import-beads-csv.js";
import { importBeadsJsonl } from "../../core/replay/import-beads-jsonl.js";
import { importJournal } from "../../core/replay/import-journal.js";
import type { ImportResult } from "../../core/replay/trace.js";
import { readBoundedFile } from "./read-bounded-file.js";

/** The largest trace read: a little under the longest string this runtime can hold. */
export const MAX_TRACE_BYTES = 500 * 1024 * 1024;

/** Which importer reads a text: CSV by extension, JSONL by what its first line holds. */
export function importTraceText(text: string, name: string): ImportResult {
  if (/\.csv$/i.test(name)) return importBeadsCsv(text, name);
  const first = text.split("\n", 50).find((l) => l.trim() !== "") ?? "";
  // A journal line names an event; a beads issue line never does.
  if (/"event"\s*:/.test(first)) return importJournal(text, name);
  if (first.trimStart().startsWith("{")) return importBeadsJsonl(text, name);
  if (text.trim() === "") return importBeadsJsonl(text, name);
  return importBeadsCsv(text, name);
}

/** Reads a trace file (beads CSV, beads issues.jsonl, or a Bosun journal) and imports it. */
export function readTraceFile(path: string, name: string = path): ImportResult | { readonly problem: string } {
  // Through the reader that never blocks: a FIFO or a device named as a trace is refused.
  const read = readBoundedFile(path, { most: MAX_TRACE_BYTES, symlinks: "follow" });
  if (!read.ok) return { problem: read.code === "ENOENT" ? "ENOENT" : read.problem };
  return importTraceText(read.text, name);
}
