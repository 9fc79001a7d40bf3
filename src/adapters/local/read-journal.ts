import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import type { JournalProblem, JournalRecord } from "../../core/metrics/journal-record.js";
import { parseJournalLine } from "../../core/metrics/journal-record.js";

/** A journal read line by line: the records, and every line that could not be read. */
export type JournalRead =
  | { readonly ok: true; readonly records: readonly JournalRecord[]; readonly problems: readonly JournalProblem[] }
  | { readonly ok: false; readonly reason: string };

/**
 * Streams a JSONL journal so a large one is never held as one string. A malformed line is
 * reported with its number and skipped: one bad line must not hide a month of history.
 */
export async function readJournal(path: string): Promise<JournalRead> {
  const records: JournalRecord[] = [];
  const problems: JournalProblem[] = [];
  const stream = createReadStream(path, { encoding: "utf8" });
  const opened = new Promise<void>((resolve, reject) => {
    stream.once("open", () => resolve());
    stream.once("error", reject);
  });
  try {
    await opened;
  } catch (err) {
    return { ok: false, reason: `cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? String(err)}` };
  }
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  let n = 0;
  for await (const text of lines) {
    n += 1;
    const parsed = parseJournalLine(text, n);
    if (parsed === undefined) continue;
    if ("record" in parsed) records.push(parsed.record);
    else problems.push(parsed.problem);
  }
  return { ok: true, records, problems };
}
